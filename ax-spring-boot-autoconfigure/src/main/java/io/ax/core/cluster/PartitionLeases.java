package io.ax.core.cluster;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The partitions of a cluster and who owns each, kept in the store every node shares, next to the rows its owners'
 * fenced writes change. A partition belongs to one process at a time (a node id and its incarnation) under an epoch
 * that grows with every move and never goes back.
 *
 * <p>Ownership needs no renewal of its own: it lasts while its owner's row in the {@link NodeRegistry} is alive, on
 * the store's clock (its heartbeat younger than the lease). A node's one heartbeat renews every partition it owns,
 * and a partition's row is written only when it moves: when a node takes one that is free (never taken, given up,
 * or owned by a node whose heartbeat is older than the lease) and when its owner gives it up. Every comparison of
 * times is made on the store's clock, inside the statement that decides, so a node whose clock is off can neither
 * take a live owner's partition nor keep one it lost.
 *
 * <p>Implementations are thread-safe.
 */
public interface PartitionLeases {

    /** The most partitions a cluster may have: far more than nodes, few enough to read them all in one look. */
    int MAX_PARTITIONS = 4096;

    /**
     * The cluster's partition count: the store's record of it, made with {@code configured} by the first node that
     * asks (the partitions are created then, owned by nobody, at epoch 0).
     *
     * @throws PartitionCountMismatchException when the store records another count
     * @throws IllegalArgumentException when {@code configured} is not between 1 and {@link #MAX_PARTITIONS}
     */
    int partitions(int configured);

    /** Every partition, ordered by number, with whether its owner is alive within {@code lease} (store clock). */
    List<PartitionLease> read(Duration lease);

    /**
     * Takes a partition for {@code node}'s process {@code incarnation} when it is free: owned by nobody, or by a
     * process whose heartbeat is older than {@code lease} on the store's clock (a process that is not in the node
     * registry at all counts as dead). A take moves it: its epoch grows by one.
     *
     * @return the partition as now owned, or empty when a live process owns it (this one included: it keeps it at
     *     its epoch, and {@link #read} tells so)
     */
    Optional<PartitionLease> take(int partition, String node, String incarnation, Duration lease);

    /**
     * Gives a partition up at once, if {@code node} still owns it at {@code epoch}: on a graceful stop, or to hand it
     * to a node that joined. The next take, by any node, moves it at once, without waiting for a lease to run out.
     *
     * @return whether it was given up; false when it had moved already
     */
    boolean release(int partition, String node, long epoch);

    /**
     * Takes each of {@code partitions} that is free, as {@link #take} does one, in as few statements as the store
     * can: a node that starts alone takes every partition in its first round, and a round must stay short.
     *
     * @return the partitions taken, as now owned; those a live process owns are left out. The default takes them one
     *     at a time
     */
    default List<PartitionLease> takeAll(
            java.util.Collection<Integer> partitions, String node, String incarnation, Duration lease) {
        List<PartitionLease> taken = new java.util.ArrayList<>();
        for (int p : partitions) {
            take(p, node, incarnation, lease).ifPresent(taken::add);
        }
        return taken;
    }

    /**
     * Gives each partition of {@code owned} (partition -&gt; epoch) up, as {@link #release} does one, in as few
     * statements as the store can.
     *
     * @return the partitions given up; those that had moved already are left out. The default releases them one at a
     *     time
     */
    default List<Integer> releaseAll(java.util.Map<Integer, Long> owned, String node) {
        List<Integer> released = new java.util.ArrayList<>();
        for (java.util.Map.Entry<Integer, Long> e : owned.entrySet()) {
            if (release(e.getKey(), node, e.getValue())) {
                released.add(e.getKey());
            }
        }
        return released;
    }

    /**
     * After the store went back in time: every partition whose epoch is below the highest a node has seen ({@code
     * seen}, partition -&gt; epoch) is set to that epoch and freed, so that its next take grants an epoch above any
     * granted in the history the store lost. Never lowers an epoch. The default does nothing: a store kept in memory
     * does not go back.
     *
     * @return how many partitions were raised
     */
    default int raiseEpochs(java.util.Map<Integer, Long> seen) {
        return 0;
    }

    /** Whether {@code node} owns the partition at {@code epoch} now, as the store sees it. */
    boolean holds(int partition, String node, long epoch);
}
