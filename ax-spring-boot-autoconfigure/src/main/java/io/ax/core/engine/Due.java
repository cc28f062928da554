package io.ax.core.engine;

import io.ax.core.AxTask;
import java.time.Instant;

/**
 * One instance waiting to be dispatched.
 *
 * @param task its task
 * @param instanceId the instance
 * @param scheduledTime its fire time
 * @param series true when the trigger made it (its end may schedule the next fire), false when triggered by hand
 */
record Due(AxTask task, String instanceId, Instant scheduledTime, boolean series) {}
