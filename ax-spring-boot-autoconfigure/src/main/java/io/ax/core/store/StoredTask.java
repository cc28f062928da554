package io.ax.core.store;

import java.time.Instant;
import java.util.Objects;

/**
 * What the store keeps of a task definition: enough for operators and for recovery. The definition itself lives in
 * code ({@code @AxJob}); the store holds the state that must survive a restart.
 *
 * @param name the task's unique name
 * @param trigger a description of its trigger, e.g. {@code cron '0/5 * * * * ?' in UTC}
 * @param nextFireTime the scheduled time of its pending fire; null when none is pending
 * @param paused whether its trigger is paused
 * @param updatedAt when the row last changed
 */
public record StoredTask(String name, String trigger, Instant nextFireTime, boolean paused, Instant updatedAt) {

    public StoredTask {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }
}
