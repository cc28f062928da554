package io.ax.core;

import java.time.Instant;
import java.util.Objects;

/**
 * A requested change of one instance's state, applied only if the instance is still in {@code from}.
 *
 * @param instanceId the instance's id
 * @param from the state the writer expects
 * @param to the new state; must be allowed by {@link InstanceState#canMoveTo}
 * @param attempt the attempt number after the change
 * @param node the node making the change
 * @param at when it changes
 * @param reason why, in words, as the audit trail records it; never null
 * @param dueAt when not null, the change applies only if the instance is still due at this time (a rescheduled
 *     instance's old fire loses)
 * @param owner the node the instance is assigned to after the change; null keeps the current owner. A move back to
 *     SCHEDULED always clears the owner
 * @param expectedOwner when not null, the change applies only if the instance is assigned to this node (a node
 *     whose assignment was taken back loses)
 * @param fence when above 0, the leader epoch the change is conditional on, in the same statement: a deposed leader's
 *     write is rejected with {@link io.ax.core.cluster.FencedOutException}; 0 for changes that need no leader
 * @param partitionEpoch when above 0, the epoch of the instance's partition the change is conditional on: it applies
 *     only if the partition the store keeps in the instance's row is, in the same statement, still at this epoch,
 *     read with a lock shared with other such writes and exclusive of a move of the partition. So a take of the
 *     partition waits for every such write in flight (and its new owner's first read sees it), and such a write that
 *     meets a take in flight waits for it, then reads the new epoch and changes nothing: a deposed owner's write is
 *     rejected with {@link io.ax.core.cluster.FencedOutException} naming the partition. The partition is the row's
 *     own, so none travels with the change; a row without one (written before the store knew the count, until
 *     {@link io.ax.core.store.InstanceStore#fillPartitions} gives it one) fails the fence. The row records the epoch
 *     ({@link io.ax.core.store.OwnedInstance#epoch()}) as a leader's change records the leader's. 0 for changes
 *     fenced by no partition. Independent of {@code fence}: a change may carry both, and then needs both, and the row
 *     records the leader's
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
        long fence,
        long partitionEpoch) {

    /**
     * A transition conditional on the state only.
     *
     * @param instanceId the instance's id
     * @param from the state the writer expects
     * @param to the new state; an arrow of the state machine from {@code from}
     * @param attempt the attempt number after the change
     * @param node the node making the change
     * @param at when it changes
     * @param reason why; null for none
     * @throws NullPointerException when {@code instanceId}, {@code from}, {@code to}, {@code node} or {@code at} is
     *     null
     * @throws IllegalTransitionException when the state machine has no arrow from {@code from} to {@code to}
     */
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

    /**
     * A transition conditional on the state and, when {@code dueAt} is set, the due time.
     *
     * @param instanceId the instance's id
     * @param from the state the writer expects
     * @param to the new state; an arrow of the state machine from {@code from}
     * @param attempt the attempt number after the change
     * @param node the node making the change
     * @param at when it changes
     * @param reason why; null for none
     * @param dueAt the due time the instance must still have, or null
     * @throws NullPointerException when {@code instanceId}, {@code from}, {@code to}, {@code node} or {@code at} is
     *     null
     * @throws IllegalTransitionException when the state machine has no arrow from {@code from} to {@code to}
     */
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

    /**
     * A transition fenced, when {@code fence} is above 0, by the leader's epoch only.
     *
     * @param instanceId the instance's id
     * @param from the state the writer expects
     * @param to the new state; an arrow of the state machine from {@code from}
     * @param attempt the attempt number after the change
     * @param node the node making the change
     * @param at when it changes
     * @param reason why; null for none
     * @param dueAt the due time the instance must still have, or null
     * @param owner the node the instance is assigned to after the change; null keeps the current owner
     * @param expectedOwner the node the instance must be assigned to, or null
     * @param fence the leader epoch the change is conditional on; 0 for none
     * @throws NullPointerException when {@code instanceId}, {@code from}, {@code to}, {@code node} or {@code at} is
     *     null
     * @throws IllegalTransitionException when the state machine has no arrow from {@code from} to {@code to}
     * @throws IllegalArgumentException when {@code fence} is negative
     */
    public Transition(
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
        this(instanceId, from, to, attempt, node, at, reason, dueAt, owner, expectedOwner, fence, 0);
    }

    /**
     * Checks the change against the state machine; a null {@code reason} becomes empty.
     *
     * @param instanceId the instance's id
     * @param from the state the writer expects
     * @param to the new state; an arrow of the state machine from {@code from}
     * @param attempt the attempt number after the change
     * @param node the node making the change
     * @param at when it changes
     * @param reason why; null for none
     * @param dueAt the due time the instance must still have, or null
     * @param owner the node the instance is assigned to after the change; null keeps the current owner
     * @param expectedOwner the node the instance must be assigned to, or null
     * @param fence the leader epoch the change is conditional on; 0 for none
     * @param partitionEpoch the epoch of the instance's partition the change is conditional on; 0 for none
     * @throws NullPointerException when {@code instanceId}, {@code from}, {@code to}, {@code node} or {@code at} is
     *     null
     * @throws IllegalTransitionException when the state machine has no arrow from {@code from} to {@code to}
     * @throws IllegalArgumentException when {@code fence} or {@code partitionEpoch} is negative
     */
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
        if (partitionEpoch < 0) {
            throw new IllegalArgumentException("partitionEpoch must be >= 0, was " + partitionEpoch);
        }
    }

    /**
     * This change, assigning the instance to {@code newOwner}, by the leader of {@code epoch}.
     *
     * @param newOwner the node the instance is assigned to after the change; null keeps the current owner
     * @param epoch the leader's epoch, the new {@link #fence()}; 0 for none
     * @return the copy
     */
    public Transition assignedTo(String newOwner, long epoch) {
        return new Transition(
                instanceId, from, to, attempt, node, at, reason, dueAt, newOwner, expectedOwner, epoch, partitionEpoch);
    }

    /**
     * This change, made only if the instance is (still) assigned to {@code expected}, which keeps it.
     *
     * @param expected the node the instance must be assigned to, and stays assigned to
     * @return the copy
     */
    public Transition ownedBy(String expected) {
        return new Transition(
                instanceId, from, to, attempt, node, at, reason, dueAt, expected, expected, fence, partitionEpoch);
    }

    /**
     * This change, taken from {@code previousOwner} by the leader of {@code epoch}.
     *
     * @param previousOwner the node the instance must be assigned to now
     * @param newOwner the node the instance is assigned to after the change; null keeps the current owner
     * @param epoch the leader's epoch, the new {@link #fence()}; 0 for none
     * @return the copy
     */
    public Transition takenFrom(String previousOwner, String newOwner, long epoch) {
        return new Transition(
                instanceId, from, to, attempt, node, at, reason, dueAt, newOwner, previousOwner, epoch, partitionEpoch);
    }

    /**
     * This change, made only while the partition of the instance's row is at {@code epoch} (see {@link
     * #partitionEpoch()}); 0 takes the partition fence off. The leader fence, if any, stays.
     *
     * @param epoch the partition's epoch; 0 for none
     * @return the copy
     */
    public Transition fencedByPartition(long epoch) {
        return new Transition(
                instanceId, from, to, attempt, node, at, reason, dueAt, owner, expectedOwner, fence, epoch);
    }

    /**
     * This change without its leader fence: for a store that cannot check the epoch of a lease kept elsewhere. The
     * partition fence stays: a store keeps its partitions beside its rows.
     *
     * @return the copy, or this change when it has no leader fence
     */
    public Transition unfenced() {
        return fence == 0
                ? this
                : new Transition(
                        instanceId,
                        from,
                        to,
                        attempt,
                        node,
                        at,
                        reason,
                        dueAt,
                        owner,
                        expectedOwner,
                        0,
                        partitionEpoch);
    }

    /**
     * Tells which node the instance is assigned to after this change: a move to SCHEDULED clears the owner.
     *
     * @param current the node the instance is assigned to before the change, or null
     * @return the owner after the change, or null for none
     */
    public String ownerAfter(String current) {
        if (to == InstanceState.SCHEDULED) {
            return null;
        }
        return owner != null ? owner : current;
    }
}
