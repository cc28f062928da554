package io.ax.core;

import java.time.Instant;
import java.util.Objects;

/**
 * A requested change of one instance's state, applied only if the instance is still in {@code from}.
 *
 * @param instanceId the instance
 * @param from the state the writer expects
 * @param to the new state; must be allowed by {@link InstanceState#canMoveTo}
 * @param attempt the attempt number after the change
 * @param node the node making the change
 * @param at when
 * @param reason why; never null
 * @param dueAt when not null, the change applies only if the instance is still due at this time (a rescheduled
 *     instance's old fire loses)
 * @param owner the node the instance is assigned to after the change; null keeps the current owner. A move back to
 *     SCHEDULED always clears the owner
 * @param expectedOwner when not null, the change applies only if the instance is assigned to this node (a node
 *     whose assignment was taken back loses)
 * @param fence when above 0, the leader epoch the change is conditional on, in the same statement: a deposed leader's
 *     write is rejected with {@link io.ax.core.cluster.FencedOutException}; 0 for changes that need no leader
 */
public record Transition(
        String instanceId,
        InstanceState from,
        InstanceState to,
        int attempt,
        String node,
        Instant at,
        String reason,
        Instant dueAt,
        String owner,
        String expectedOwner,
        long fence) {

    /** A transition conditional on the state only. */
    public Transition(
            String instanceId,
            InstanceState from,
            InstanceState to,
            int attempt,
            String node,
            Instant at,
            String reason) {
        this(instanceId, from, to, attempt, node, at, reason, null);
    }

    /** A transition conditional on the state and, when {@code dueAt} is set, the due time. */
    public Transition(
            String instanceId,
            InstanceState from,
            InstanceState to,
            int attempt,
            String node,
            Instant at,
            String reason,
            Instant dueAt) {
        this(instanceId, from, to, attempt, node, at, reason, dueAt, null, null, 0);
    }

    public Transition {
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(at, "at");
        reason = reason == null ? "" : reason;
        if (!from.canMoveTo(to)) {
            throw new IllegalTransitionException(instanceId, from, to);
        }
        if (fence < 0) {
            throw new IllegalArgumentException("fence must be >= 0, was " + fence);
        }
    }

    /** This change, assigning the instance to {@code newOwner}, by the leader of {@code epoch}. */
    public Transition assignedTo(String newOwner, long epoch) {
        return new Transition(instanceId, from, to, attempt, node, at, reason, dueAt, newOwner, expectedOwner, epoch);
    }

    /** This change, made only if the instance is (still) assigned to {@code node}, which keeps it. */
    public Transition ownedBy(String expected) {
        return new Transition(instanceId, from, to, attempt, node, at, reason, dueAt, expected, expected, fence);
    }

    /** This change, taken from {@code previousOwner} by the leader of {@code epoch}; {@code newOwner} may be null. */
    public Transition takenFrom(String previousOwner, String newOwner, long epoch) {
        return new Transition(instanceId, from, to, attempt, node, at, reason, dueAt, newOwner, previousOwner, epoch);
    }

    /** This change without its fence: for a store that cannot check the epoch of a lease kept elsewhere. */
    public Transition unfenced() {
        return fence == 0
                ? this
                : new Transition(instanceId, from, to, attempt, node, at, reason, dueAt, owner, expectedOwner, 0);
    }

    /** The owner the instance has after this change, given the one it had: a move to SCHEDULED clears it. */
    public String ownerAfter(String current) {
        if (to == InstanceState.SCHEDULED) {
            return null;
        }
        return owner != null ? owner : current;
    }
}
