package io.ax.core.store;

import io.ax.core.TaskInstance;
import java.util.Objects;

/**
 * An instance with the node it is assigned to.
 *
 * @param instance the instance
 * @param owner the node it is assigned to; null when unassigned (SCHEDULED, or never dispatched)
 * @param epoch the epoch of the last fenced change of the instance: the leader's (its assignment, a takeover), or its
 *     partition's for a change fenced by that alone ({@link io.ax.core.Transition#partitionEpoch()}); 0 when none
 */
public record OwnedInstance(TaskInstance instance, String owner, long epoch) {

    public OwnedInstance {
        Objects.requireNonNull(instance, "instance");
    }

    /** An instance with its owner, whose epoch is not known (0). */
    public OwnedInstance(TaskInstance instance, String owner) {
        this(instance, owner, 0);
    }
}
