package io.ax.core.store;

import java.time.Instant;
import java.util.Objects;

/**
 * A runtime task definition as the store holds it.
 *
 * @param name the task's unique name
 * @param definition the task as text (see the engine's codec); opaque to the store
 * @param version 1 when registered, one more with every update
 * @param node the node that wrote this version
 * @param updatedAt when this version was written
 */
public record StoredDefinition(String name, String definition, long version, String node, Instant updatedAt) {

    public StoredDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (version < 1) {
            throw new IllegalArgumentException("version must be >= 1, was " + version);
        }
    }
}
