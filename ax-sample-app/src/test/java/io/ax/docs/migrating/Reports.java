package io.ax.docs.migrating;

import java.time.Instant;

/** The migration guide's report builder, run by a cron task. */
public interface Reports {

    /** Builds the report of the fire time {@code scheduledFor}. */
    void build(Instant scheduledFor);
}
