package io.ax.core.engine;

import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import java.time.Instant;

/**
 * One instance waiting to be dispatched.
 *
 * @param task its task
 * @param instanceId the instance
 * @param scheduledTime its fire time
 * @param origin what made it
 * @param attempt the attempt its next dispatch starts (1 unless an assignment was taken back from a node)
 */
record Due(AxTask task, String instanceId, Instant scheduledTime, InstanceOrigin origin, int attempt) {

    Due(AxTask task, String instanceId, Instant scheduledTime, InstanceOrigin origin) {
        this(task, instanceId, scheduledTime, origin, 1);
    }

    boolean series() {
        return origin == InstanceOrigin.SERIES;
    }
}
