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
 */
record Due(AxTask task, String instanceId, Instant scheduledTime, InstanceOrigin origin) {

    boolean series() {
        return origin == InstanceOrigin.SERIES;
    }
}
