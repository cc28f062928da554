package io.ax.core;

import java.time.Instant;
import java.util.Map;

/**
 * What a running task knows about its execution. Handed to {@link AxJob} methods that declare it as their only
 * parameter, and to every {@link AxExecutor}. Immutable.
 */
public interface AxContext {

    /** The task's unique name. */
    String taskName();

    /** The instance id; the same for every attempt of this instance. Use it to make effects idempotent. */
    String instanceId();

    /** The attempt number, 1 for the first try. */
    int attempt();

    /** The fire time this instance belongs to. */
    Instant scheduledTime();

    /** The node executing it. */
    String nodeId();

    /** The task's static parameters. */
    Map<String, String> params();
}
