package io.ax.core;

import java.time.Instant;
import java.util.Objects;

/**
 * A task registered at runtime ({@link AxScheduler#register}), as the store keeps it: stored, shared with every node
 * of the cluster, surviving restarts.
 *
 * @param task the task
 * @param version 1 when registered, one more with every update; 0 for a definition not stored yet ({@link #of})
 * @param updatedAt when it was registered or last updated; null when not stored yet
 * @param updatedBy the node that registered or last updated it; null when not stored yet
 */
public record TaskDefinition(AxTask task, long version, Instant updatedAt, String updatedBy) {

    /**
     * Checks the components.
     *
     * @param task the task; not null
     * @param version 0 or more
     * @param updatedAt when it was registered or last updated, or null
     * @param updatedBy the node that registered or last updated it, or null
     * @throws NullPointerException when {@code task} is null
     * @throws IllegalArgumentException when {@code version} is negative
     */
    public TaskDefinition {
        Objects.requireNonNull(task, "task");
        if (version < 0) {
            throw new IllegalArgumentException("version must be >= 0, was " + version);
        }
    }

    /**
     * A definition to register or update, not stored yet.
     *
     * @param task the task
     * @return a definition of version 0, without time or node
     * @throws NullPointerException when {@code task} is null
     */
    public static TaskDefinition of(AxTask task) {
        return new TaskDefinition(task, 0, null, null);
    }

    /** {@return the task's name} */
    public String name() {
        return task.name();
    }
}
