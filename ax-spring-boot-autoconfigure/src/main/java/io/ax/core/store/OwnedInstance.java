package io.ax.core.store;

import io.ax.core.TaskInstance;
import java.util.Objects;

/**
 * An instance with the node it is assigned to.
 *
 * @param instance the instance
 * @param owner the node it is assigned to; null when unassigned (SCHEDULED, or never dispatched)
 */
public record OwnedInstance(TaskInstance instance, String owner) {

    public OwnedInstance {
        Objects.requireNonNull(instance, "instance");
    }
}
