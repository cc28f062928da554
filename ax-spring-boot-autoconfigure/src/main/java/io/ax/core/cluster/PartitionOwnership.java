package io.ax.core.cluster;

import io.ax.core.logging.Loggers;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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

    private static final System.Logger LOG = Loggers.get(PartitionOwnership.class.getName());

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
    /** Judges each read before the round acts on it; false stops the round (the store went back in time). */
    private volatile java.util.function.Predicate<List<PartitionLease>> readCheck = read -> true;
    /** Live owners and how many partitions each held, as the last round read them. */
    private Map<String, Integer> owners = Map.of();
    /** What the round under way did, for its one log line; touched by the round's thread only. */
    private final Moves round = new Moves();

    /** The partitions one round moved, by why. */
    private static final class Moves {
        final List<Integer> taken = new java.util.ArrayList<>();
        final List<Integer> rescued = new java.util.ArrayList<>();
        final List<Integer> handedOver = new java.util.ArrayList<>();
        final List<Integer> lostToOthers = new java.util.ArrayList<>();

        boolean any() {
            return !taken.isEmpty() || !rescued.isEmpty() || !handedOver.isEmpty() || !lostToOthers.isEmpty();
        }

        void clear() {
            taken.clear();
            rescued.clear();
            handedOver.clear();
            lostToOthers.clear();
        }
    }

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
        round.clear();
        try {
            moveTowardsPlan(nodes, nowNanos);
        } finally {
            if (round.any()) {
                log(lastCounting);
            }
        }
    }

    /** The nodes the last round's plan was made over. */
    private Set<String> lastCounting = Set.of();

    private void moveTowardsPlan(List<NodeStatus> nodes, long nowNanos) {
        Set<String> counting = settled.look(nodes, nowNanos);
        lastCounting = counting;
        List<PartitionLease> now = leases.read(lease);
        if (!readCheck.test(now)) {
            return;
        }
        forgetMovedAway(now);
        String[] target = PartitionPlan.target(
                partitions, counting, p -> now.get(p).ownerAlive() ? now.get(p).owner() : null, virtualNodes);
        Map<Integer, Long> handOver = new TreeMap<>();
        List<Integer> planned = new java.util.ArrayList<>();
        List<Integer> stranded = new java.util.ArrayList<>();
        for (PartitionLease p : now) {
            int id = p.partition();
            if (p.ownedBy(nodeId, incarnation)) {
                boolean movesAway =
                        target[id] != null && !target[id].equals(nodeId) && nowNanos >= holdUntil.getOrDefault(id, 0L);
                if (movesAway) {
                    handOver.put(id, p.epoch());
                } else if (!owned.containsKey(id)) {
                    // a hand-over whose release failed (the store went away in the middle): still this node's
                    owned.put(id, p.epoch());
                    listener.gained(id, p.epoch());
                }
            } else if (p.free() && nodeId.equals(target[id])) {
                planned.add(id);
            } else if (p.free() && freeFor(p, nodes).compareTo(strandedAfter) >= 0) {
                stranded.add(id);
            }
        }
        handOver(handOver);
        round.taken.addAll(take(planned));
        for (int id : take(stranded)) {
            round.rescued.add(id);
            int times = rescues.merge(id, 1, Integer::sum);
            long hold = Math.min(LONGEST_HOLD.toNanos(), settleNanos << Math.min(times - 1, 20));
            holdUntil.put(id, nowNanos + hold);
        }
        countOwners(now);
    }

    /**
     * How long a free partition has been free: since its release, or since its dead owner's lease ran out. Not since
     * it last moved: a dead owner's partitions moved to it long ago, and counting from then would let the first node
     * to notice the death take them all as stranded, only to hand most of them on to their planned owners later
     * (every one of them moving twice).
     */
    private Duration freeFor(PartitionLease p, List<NodeStatus> nodes) {
        if (p.owner() != null) {
            for (NodeStatus n : nodes) {
                if (n.nodeId().equals(p.owner()) && n.incarnation().equals(p.incarnation())) {
                    Duration dead = n.heartbeatAge().minus(lease);
                    return dead.isNegative() ? Duration.ZERO : dead;
                }
            }
        }
        return p.sinceMove(); // released (or its owner's row is gone): free since it last moved
    }

    /** Who owns how many partitions after this round: the others as read, this node as it owns them now. */
    private void countOwners(List<PartitionLease> read) {
        Map<String, Integer> held = new TreeMap<>();
        for (PartitionLease p : read) {
            if (p.owner() != null && p.ownerAlive() && !p.owner().equals(nodeId) && !owned.containsKey(p.partition())) {
                held.merge(p.owner(), 1, Integer::sum);
            }
        }
        if (!owned.isEmpty()) {
            held.put(nodeId, owned.size());
        }
        owners = Collections.unmodifiableMap(held);
    }

    /** A partition this node believed its own is someone else's: it was deposed, and its writes refused since. */
    private void forgetMovedAway(List<PartitionLease> now) {
        for (Map.Entry<Integer, Long> mine : Map.copyOf(owned).entrySet()) {
            PartitionLease p = now.get(mine.getKey());
            if (!p.ownedBy(nodeId, incarnation) || p.epoch() != mine.getValue()) {
                owned.remove(mine.getKey());
                round.lostToOthers.add(mine.getKey());
                listener.lost(mine.getKey(), mine.getValue());
            }
        }
    }

    /** Gives partitions up to the nodes the plan gives them, their work stopped here first. */
    private void handOver(Map<Integer, Long> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        for (Map.Entry<Integer, Long> p : partitions.entrySet()) {
            owned.remove(p.getKey());
            listener.lost(p.getKey(), p.getValue()); // its work stops here before another node may start it
        }
        List<Integer> released = leases.releaseAll(partitions, nodeId); // those that moved meanwhile are left out
        round.handedOver.addAll(released);
        moves += released.size();
    }

    /** Takes what it can of {@code partitions}: those still free. */
    private List<Integer> take(List<Integer> partitions) {
        if (partitions.isEmpty()) {
            return List.of();
        }
        List<Integer> taken = new java.util.ArrayList<>();
        for (PartitionLease p : leases.takeAll(partitions, nodeId, incarnation, lease)) {
            owned.put(p.partition(), p.epoch());
            moves++;
            listener.gained(p.partition(), p.epoch());
            taken.add(p.partition());
        }
        return taken;
    }

    /**
     * Has every read judged before a round acts on it ({@link StoreHistory#partitions}): a read the check refuses ends
     * the round there.
     */
    public void checkReads(java.util.function.Predicate<List<PartitionLease>> check) {
        this.readCheck = java.util.Objects.requireNonNull(check, "check");
    }

    /**
     * A graceful stop: every partition is given up at once, after its work stopped, so that the others take it at
     * their next round rather than after the lease.
     */
    public void releaseAll() {
        Map<Integer, Long> mine = new TreeMap<>(owned);
        for (Map.Entry<Integer, Long> p : mine.entrySet()) {
            owned.remove(p.getKey());
            listener.lost(p.getKey(), p.getValue());
        }
        List<Integer> released = List.of();
        RuntimeException failed = null;
        try {
            released = mine.isEmpty() ? List.of() : leases.releaseAll(mine, nodeId);
        } catch (RuntimeException e) {
            failed = e; // the store is away: they go when the lease runs out, as a dead node's do
        }
        if (failed != null) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Node {0} could not give its partitions up as it stops; the others take them when its heartbeat"
                            + " is older than the lease: {1}",
                    nodeId,
                    failed.toString());
        }
        if (!released.isEmpty()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "Node {0} stops: it gave up partitions {1} for the other nodes to take at once",
                    nodeId,
                    logged(released));
        }
    }

    /**
     * The one line a round that moved something logs: what moved, and why (the plan gave a partition to this node,
     * a stranded one was rescued, this node handed some to the node the plan gives them, or found some owned by
     * another node after it was deposed).
     */
    private void log(Set<String> counting) {
        StringBuilder line = new StringBuilder("Node ").append(nodeId).append(" partitions:");
        if (!round.taken.isEmpty()) {
            line.append(" took ")
                    .append(logged(round.taken))
                    .append(" (the plan over ")
                    .append(counting)
                    .append(')');
        }
        if (!round.rescued.isEmpty()) {
            line.append(" rescued ")
                    .append(logged(round.rescued))
                    .append(" (free longer than ")
                    .append(strandedAfter)
                    .append(", their planned owner did not take them)");
        }
        if (!round.handedOver.isEmpty()) {
            line.append(" handed over ")
                    .append(logged(round.handedOver))
                    .append(" (the plan over ")
                    .append(counting)
                    .append(" gives them to another node)");
        }
        if (!round.lostToOthers.isEmpty()) {
            line.append(" lost ")
                    .append(logged(round.lostToOthers))
                    .append(" (another node took them: this node was taken for dead)");
        }
        line.append("; it owns ").append(owned.size()).append(" of ").append(partitions);
        LOG.log(round.lostToOthers.isEmpty() ? System.Logger.Level.INFO : System.Logger.Level.WARNING, line.toString());
    }

    /**
     * Partition numbers for a log line: as ranges, and at most {@value #LOGGED_RANGES} of them with the count after,
     * since a node that joins four takes 64 partitions scattered over the ring.
     */
    static String logged(java.util.Collection<Integer> partitions) {
        String all = ranges(partitions);
        int cut = -1;
        int commas = 0;
        for (int i = 0; i < all.length() && commas < LOGGED_RANGES; i++) {
            if (all.charAt(i) == ',' && ++commas == LOGGED_RANGES) {
                cut = i;
            }
        }
        return cut < 0 ? all : all.substring(0, cut) + ", ... (" + partitions.size() + " in all)]";
    }

    private static final int LOGGED_RANGES = 12;

    /** Partition numbers as ranges, {@code [0-3, 7, 9-10]}: a round moves a quarter of 256 at times. */
    static String ranges(java.util.Collection<Integer> partitions) {
        List<Integer> sorted = new java.util.ArrayList<>(partitions);
        Collections.sort(sorted);
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < sorted.size(); ) {
            int from = sorted.get(i);
            int to = from;
            while (i + 1 < sorted.size() && sorted.get(i + 1) == to + 1) {
                to = sorted.get(++i);
            }
            i++;
            if (out.length() > 1) {
                out.append(", ");
            }
            out.append(from);
            if (to != from) {
                out.append('-').append(to);
            }
        }
        return out.append(']').toString();
    }

    /** Live owners and how many partitions each held, as the last round read them, by node id. */
    public Map<String, Integer> owners() {
        return owners;
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
