package io.ax.core.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One audited change of a runtime task definition.
 *
 * @param name the task
 * @param version the version the change made (for UNREGISTERED: the version removed)
 * @param action {@code REGISTERED}, {@code UPDATED} or {@code UNREGISTERED}
 * @param node the node that made it
 * @param at when
 * @param definition the definition written; null for UNREGISTERED
 */
public record DefinitionChange(String name, long version, String action, String node, Instant at, String definition) {

    public DefinitionChange {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(at, "at");
    }
}
