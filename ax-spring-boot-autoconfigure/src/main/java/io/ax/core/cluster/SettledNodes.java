package io.ax.core.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The nodes that take partitions (the input of {@link PartitionPlan}), with hysteresis: a node counts once it has
 * been seen alive, without a break, for the settle time, and stops counting the first time it is seen dead (its
 * heartbeat older than the lease, on the store's clock) or stopping. A node whose connection flaps, alive and dead
 * by turns more often than the settle time, is never given partitions back, so it moves its partitions once, to the
 * others, and not at every flap; the others' plan does not change while it flaps.
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
    private final long settleNanos;
    /** Process (node id and incarnation) to when it was first seen alive in its current run of looks. */
    private final Map<String, Long> aliveSince = new HashMap<>();

    private Set<String> settled = Set.of();

    /**
     * @param lease a node whose heartbeat is older than this is dead
     * @param settle how long a node must be seen alive without a break before it counts
     */
    public SettledNodes(Duration lease, Duration settle) {
        this.lease = Objects.requireNonNull(lease, "lease");
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
        Map<String, Long> seen = new HashMap<>();
        Set<String> alive = new TreeSet<>();
        Set<String> counting = new TreeSet<>();
        for (NodeStatus n : nodes) {
            if (n.leaving() || !n.aliveWithin(lease)) {
                continue; // seen dead or stopping: its run of looks ends here
            }
            String process = n.nodeId() + '/' + n.incarnation();
            long since = aliveSince.getOrDefault(process, nowNanos);
            seen.put(process, since);
            alive.add(n.nodeId());
            if (nowNanos - since >= settleNanos) {
                counting.add(n.nodeId());
            }
        }
        if (counting.isEmpty()) {
            // nobody counts: every live node counts from now on, as if settled already
            seen.replaceAll((process, since) -> Math.min(since, nowNanos - settleNanos));
            counting = alive;
        }
        aliveSince.clear();
        aliveSince.putAll(seen);
        settled = Set.copyOf(counting);
        return settled;
    }

    /** What the last look returned. */
    public Set<String> settled() {
        return settled;
    }
}
