package io.ax.core.engine;

import io.ax.core.AxTask;
import java.time.Instant;

/**
 * One instance waiting to be dispatched.
 *
 * @param task its task
 * @param instanceId the instance
 * @param scheduledTime its fire time
 * @param origin what made it
 */
record Due(AxTask task, String instanceId, Instant scheduledTime, Origin origin) {

    /** What made an instance. */
    enum Origin {
        /** The task's trigger: its end may plan the next fire (fixed delay). */
        SERIES,
        /** A misfire policy, for a missed fire time: waits for a running instance instead of being skipped. */
        CATCH_UP,
        /** A request to run now, or an instance recovered without its origin. */
        ON_DEMAND
    }

    boolean series() {
        return origin == Origin.SERIES;
    }
}
