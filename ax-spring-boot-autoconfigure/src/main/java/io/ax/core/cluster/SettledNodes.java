package io.ax.core.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The nodes that take partitions (the input of {@link PartitionPlan}), with hysteresis both ways. A node starts to
 * count once it has been seen heartbeating steadily (its heartbeat younger than {@code fresh} at every look) for the
 * settle time, and then counts for as long as it is alive (its heartbeat younger than the lease, on the store's
 * clock) and not stopping. So a node whose connection flaps, silent now and then for longer than {@code fresh}, is
 * never given partitions (back): it moves its partitions once, to the others, and not at every flap, and the others'
 * plan does not change while it flaps; while a node that counts may miss a heartbeat or two without moving anything.
 *
 * <p>When no node counts (a cluster starting cold, or every other node gone), every live node counts at once: there
 * is nothing to protect from a move then, and a node alone owns its partitions from its first look.
 *
 * <p>A look is fed the registry as read (every node reads the same rows) and the local monotonic time: nodes that
 * look a heartbeat apart may disagree for a heartbeat about a node that just settled, and no longer. Not
 * thread-safe: one thread looks (the cluster thread).
 */
public final class SettledNodes {

    private final Duration lease;
    private final Duration fresh;
    private final long settleNanos;
    /** Process (node id and incarnation) to since when it has been seen heartbeating steadily. */
    private final Map<String, Long> steadySince = new HashMap<>();
    /** The processes that count. */
    private Set<String> counted = Set.of();

    private Set<String> settled = Set.of();

    /**
     * @param lease a node whose heartbeat is older than this is dead
     * @param fresh a node whose heartbeat is younger than this at a look heartbeats steadily (a couple of heartbeats)
     * @param settle how long a node must heartbeat steadily before it counts
     */
    public SettledNodes(Duration lease, Duration fresh, Duration settle) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.fresh = Objects.requireNonNull(fresh, "fresh");
        if (settle.isNegative()) {
            throw new IllegalArgumentException("settle must not be negative, was " + settle);
        }
        this.settleNanos = settle.toNanos();
    }

    /**
     * One look at the registry.
     *
     * @param nodes every registered node, as read now
     * @param nowNanos the local monotonic clock
     * @return the node ids that take partitions now
     */
    public Set<String> look(List<NodeStatus> nodes, long nowNanos) {
        Map<String, Long> steady = new HashMap<>();
        Set<String> alive = new TreeSet<>();
        Set<String> counting = new TreeSet<>();
        Set<String> countingProcesses = new TreeSet<>();
        Set<String> aliveProcesses = new TreeSet<>();
        for (NodeStatus n : nodes) {
            if (n.leaving() || !n.aliveWithin(lease)) {
                continue; // seen dead or stopping: it counts no more, and settles from scratch if it comes back
            }
            String process = n.nodeId() + '/' + n.incarnation();
            alive.add(n.nodeId());
            aliveProcesses.add(process);
            if (n.aliveWithin(fresh)) {
                steady.put(process, steadySince.getOrDefault(process, nowNanos));
            }
            Long since = steady.get(process);
            if (counted.contains(process) || since != null && nowNanos - since >= settleNanos) {
                counting.add(n.nodeId());
                countingProcesses.add(process);
            }
        }
        if (counting.isEmpty()) {
            // nobody counts: every live node counts from now on
            counting = alive;
            countingProcesses = aliveProcesses;
        }
        steadySince.clear();
        steadySince.putAll(steady);
        counted = Set.copyOf(countingProcesses);
        settled = Set.copyOf(counting);
        return settled;
    }

    /** What the last look returned. */
    public Set<String> settled() {
        return settled;
    }
}
