package io.ax.core;

import java.time.Instant;
import java.util.Objects;

/**
 * A snapshot of one execution of a task for one scheduled time. The id stays the same across retries.
 *
 * @param id unique id
 * @param taskName the task
 * @param scheduledTime the fire time this instance belongs to; unique per task
 * @param state the state when the snapshot was taken
 * @param attempt the current attempt, 1-based; 0 before the first dispatch
 * @param node the node that last changed it
 * @param updatedAt when it last changed
 */
public record TaskInstance(
        String id,
        String taskName,
        Instant scheduledTime,
        InstanceState state,
        int attempt,
        String node,
        Instant updatedAt) {

    public TaskInstance {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(taskName, "taskName");
        Objects.requireNonNull(scheduledTime, "scheduledTime");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be >= 0, was " + attempt);
        }
    }

    /** A copy in another state. */
    public TaskInstance with(InstanceState newState, int newAttempt, String byNode, Instant at) {
        return new TaskInstance(id, taskName, scheduledTime, newState, newAttempt, byNode, at);
    }
}
