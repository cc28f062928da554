package io.ax.core;

import java.time.Instant;
import java.util.List;
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
     * How the reason of a takeover starts: a RUNNING -&gt; FAILED row whose attempt ended with its node (which
     * crashed, froze, was cut off from the store, or restarted while it ran), not with a failure of its handler. The
     * attempt runs again whatever the task's retry policy says, up to the engine's bound on takeovers.
     */
    public static final String TAKEOVER = "takeover: ";

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

    /** {@return whether this row records a takeover: a running attempt ended with its node, see {@link #TAKEOVER}} */
    public boolean isTakeover() {
        return to == InstanceState.FAILED && reason.startsWith(TAKEOVER);
    }

    /**
     * Counts the takeovers of an instance's current cycle of attempts: its takeover rows after the last replay of
     * the instance (a move out of DEAD, which starts the attempts afresh).
     *
     * @param trail the instance's audit trail, oldest first
     * @return how many of its attempts since it was created, or last replayed, were taken over
     */
    public static int takeoversSinceReplay(List<AuditEntry> trail) {
        int takeovers = 0;
        for (AuditEntry e : trail) {
            if (e.from() == InstanceState.DEAD) {
                takeovers = 0;
            } else if (e.isTakeover()) {
                takeovers++;
            }
        }
        return takeovers;
    }
}
