package io.ax.core;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of the audit log: a transition of one instance. A row whose {@code from} and {@code to} are the same records
 * a note, not a move ({@link InstanceState#isNote}).
 *
 * @param instanceId the instance's id
 * @param from the state before; null for the creation
 * @param to the state after
 * @param node the id of the node that made the change
 * @param attempt the attempt number at the change
 * @param at when it changed
 * @param reason why, in words (an error message for FAILED and TIMEOUT); may be empty, never null
 */
public record AuditEntry(
        String instanceId, InstanceState from, InstanceState to, String node, int attempt, Instant at, String reason) {

    /** The reason of a SUCCESS whose task gave no message of its own. */
    public static final String DEFAULT_SUCCESS_REASON = "succeeded";

    /**
     * Checks the row; a null {@code reason} becomes empty.
     *
     * @param instanceId the instance's id; not null
     * @param from the state before; null for the creation
     * @param to the state after; not null
     * @param node the id of the node that made the change; not null
     * @param attempt the attempt number at the change
     * @param at when it changed; not null
     * @param reason why, in words; null for none
     * @throws NullPointerException when {@code instanceId}, {@code to}, {@code node} or {@code at} is null
     */
    public AuditEntry {
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(at, "at");
        reason = reason == null ? "" : reason;
    }
}
