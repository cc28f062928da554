package io.ax.core.cluster;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One node's side of partitioned ownership, a round per heartbeat (on the cluster thread): it reads the partitions,
 * computes the plan every node computes ({@link SettledNodes}, {@link PartitionPlan}), gives up what the plan moves
 * to another settled node, takes what is free and planned for it, and tells its listener what it gained and lost.
 * A partition free for longer than {@code strandedAfter} (its planned owner has not taken it: the views differ, or
 * that node is slow or stuck) is taken by whichever node gets to it first, so no view leaves a partition without an
 * owner; the node that took it so hands it over again only after a hold that doubles with every such rescue (from
 * the settle time, up to {@link #LONGEST_HOLD}), so a planned owner that never takes costs the partition an owner
 * now and then, not at every round.
 *
 * <p>The listener hears of a loss before the partition is given up, so the work of a partition is stopped here
 * before another node may start it; a partition found owned by another (this node was deposed: frozen past its
 * lease, say) is reported lost too, after the fact, and the store's fence has refused its writes meanwhile.
 *
 * <p>Not thread-safe: one thread runs the rounds.
 */
public final class PartitionOwnership {

    /** What a node does with the partitions it gains and loses; called on the round's thread. */
    public interface Listener {

        /** The partition is this node's now, at {@code epoch}: its writes carry that epoch. */
        void gained(int partition, long epoch);

        /** The partition is no longer this node's (about to be given up, or found taken): stop its work. */
        void lost(int partition, long epoch);
    }

    /** The longest a rescued partition is held before it is handed over again. */
    static final Duration LONGEST_HOLD = Duration.ofMinutes(5);

    private final PartitionLeases leases;
    private final String nodeId;
    private final String incarnation;
    private final int partitions;
    private final int virtualNodes;
    private final Duration lease;
    private final Duration strandedAfter;
    private final SettledNodes settled;
    private final Listener listener;
    /** What this node owns, by partition, at which epoch. */
    private final Map<Integer, Long> owned = new TreeMap<>();
    /** Partitions this node rescued from stranding: how often, and until when (monotonic) it keeps them. */
    private final Map<Integer, Integer> rescues = new HashMap<>();

    private final Map<Integer, Long> holdUntil = new HashMap<>();
    private final long settleNanos;

    private long moves;

    /**
     * @param partitions the count the store records ({@link PartitionLeases#partitions})
     * @param lease a node whose heartbeat is older is dead, and its partitions free
     * @param fresh a node whose heartbeat is younger heartbeats steadily (see {@link SettledNodes})
     * @param settle how long a node must be seen alive before the plan gives it partitions
     * @param strandedAfter how long a free partition waits for its planned owner before any node takes it
     */
    public PartitionOwnership(
            PartitionLeases leases,
            String nodeId,
            String incarnation,
            int partitions,
            int virtualNodes,
            Duration lease,
            Duration fresh,
            Duration settle,
            Duration strandedAfter,
            Listener listener) {
        this.leases = Objects.requireNonNull(leases, "leases");
        this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
        this.incarnation = Objects.requireNonNull(incarnation, "incarnation");
        this.partitions = partitions;
        this.virtualNodes = virtualNodes;
        this.lease = Objects.requireNonNull(lease, "lease");
        this.strandedAfter = Objects.requireNonNull(strandedAfter, "strandedAfter");
        this.settled = new SettledNodes(lease, fresh, settle);
        this.settleNanos = settle.toNanos();
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * One round, after this node's heartbeat.
     *
     * @param nodes the registry as read in this heartbeat
     * @param nowNanos the local monotonic clock
     */
    public void round(List<NodeStatus> nodes, long nowNanos) {
        Set<String> counting = settled.look(nodes, nowNanos);
        List<PartitionLease> now = leases.read(lease);
        forgetMovedAway(now);
        String[] target = PartitionPlan.target(
                partitions, counting, p -> now.get(p).ownerAlive() ? now.get(p).owner() : null, virtualNodes);
        for (PartitionLease p : now) {
            int id = p.partition();
            if (p.ownedBy(nodeId, incarnation)) {
                if (target[id] != null && !target[id].equals(nodeId) && nowNanos >= holdUntil.getOrDefault(id, 0L)) {
                    handOver(p);
                }
            } else if (p.free() && nodeId.equals(target[id])) {
                take(id);
            } else if (p.free() && p.sinceMove().compareTo(strandedAfter) >= 0) {
                if (take(id)) {
                    int times = rescues.merge(id, 1, Integer::sum);
                    long hold = Math.min(LONGEST_HOLD.toNanos(), settleNanos << Math.min(times - 1, 20));
                    holdUntil.put(id, nowNanos + hold);
                }
            }
        }
    }

    /** A partition this node believed its own is someone else's: it was deposed, and its writes refused since. */
    private void forgetMovedAway(List<PartitionLease> now) {
        for (Map.Entry<Integer, Long> mine : Map.copyOf(owned).entrySet()) {
            PartitionLease p = now.get(mine.getKey());
            if (!p.ownedBy(nodeId, incarnation) || p.epoch() != mine.getValue()) {
                owned.remove(mine.getKey());
                listener.lost(mine.getKey(), mine.getValue());
            }
        }
    }

    private void handOver(PartitionLease p) {
        Long epoch = owned.remove(p.partition());
        listener.lost(p.partition(), p.epoch()); // its work stops here before another node may start it
        if (epoch == null || !leases.release(p.partition(), nodeId, p.epoch())) {
            return; // moved meanwhile: nothing to give up
        }
        moves++;
    }

    private boolean take(int partition) {
        Optional<PartitionLease> taken = leases.take(partition, nodeId, incarnation, lease);
        taken.ifPresent(p -> {
            owned.put(partition, p.epoch());
            moves++;
            listener.gained(partition, p.epoch());
        });
        return taken.isPresent();
    }

    /**
     * A graceful stop: every partition is given up at once, after its work stopped, so that the others take it at
     * their next round rather than after the lease.
     */
    public void releaseAll() {
        for (Map.Entry<Integer, Long> mine : Map.copyOf(owned).entrySet()) {
            owned.remove(mine.getKey());
            listener.lost(mine.getKey(), mine.getValue());
            leases.release(mine.getKey(), nodeId, mine.getValue());
        }
    }

    /** What this node owns now, by partition, with the epoch of each. */
    public Map<Integer, Long> owned() {
        return Collections.unmodifiableMap(owned);
    }

    /** Partitions this node took or gave up since it started. */
    public long moves() {
        return moves;
    }
}
