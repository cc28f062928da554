package io.ax.core.cluster;

import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A node registry in this JVM's memory, for nodes that share no database: engines in one process, or tests that
 * drive time with a fake clock. It keeps the promises of the JDBC registry, with {@code clock.instant()} as the
 * store's clock. Thread-safe: every method holds the object's lock.
 */
public final class LocalNodeRegistry implements NodeRegistry {

    private final AxClock clock;

    /** The registered nodes by id, in id order. Guarded by this. */
    private final Map<String, Row> rows = new TreeMap<>();

    /** @param clock the store's clock: heartbeats and their ages are measured on its {@link AxClock#instant()} */
    public LocalNodeRegistry(AxClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * {@inheritDoc}
     *
     * <p>Registering the same incarnation again refreshes its row (heartbeat, host, groups, capacity).
     *
     * @throws IllegalArgumentException when {@code staleAfter} is not positive, or a group is empty or holds a comma
     *     (the JDBC registry cannot store those)
     */
    @Override
    public synchronized void register(NodeInfo node, Duration staleAfter) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(staleAfter, "staleAfter");
        if (staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("staleAfter must be positive, was " + staleAfter);
        }
        for (String g : node.groups()) {
            if (g.isEmpty() || g.indexOf(',') >= 0) {
                throw new IllegalArgumentException("a group name is not empty and has no comma, was '" + g + "'");
            }
        }
        Instant now = clock.instant();
        Row existing = rows.get(node.nodeId());
        if (existing != null
                && !existing.node.incarnation().equals(node.incarnation())
                && Duration.between(existing.heartbeat, now).compareTo(staleAfter) < 0) {
            throw new NodeIdInUseException(node.nodeId(), existing.node.host());
        }
        rows.put(node.nodeId(), new Row(node, now, node.capacity()));
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException when {@code capacityFree} is negative
     */
    @Override
    public synchronized boolean heartbeat(String nodeId, String incarnation, int capacityFree) {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(incarnation, "incarnation");
        if (capacityFree < 0 && capacityFree != NodeStatus.LEAVING) {
            throw new IllegalArgumentException(
                    "free capacity must be >= 0 (or NodeStatus.LEAVING), was " + capacityFree);
        }
        Row row = rows.get(nodeId);
        if (row == null || !row.node.incarnation().equals(incarnation)) {
            return false;
        }
        rows.put(nodeId, new Row(row.node, clock.instant(), capacityFree));
        return true;
    }

    @Override
    public synchronized List<NodeStatus> nodes() {
        Instant now = clock.instant();
        List<NodeStatus> nodes = new ArrayList<>(rows.size());
        for (Row row : rows.values()) {
            NodeInfo n = row.node;
            nodes.add(new NodeStatus(
                    n.nodeId(),
                    n.incarnation(),
                    n.host(),
                    n.startedAt(),
                    row.heartbeat,
                    Duration.between(row.heartbeat, now),
                    n.groups(),
                    row.capacityFree,
                    n.protocol()));
        }
        return nodes;
    }

    @Override
    public synchronized boolean remove(String nodeId, String incarnation) {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(incarnation, "incarnation");
        Row row = rows.get(nodeId);
        if (row == null || !row.node.incarnation().equals(incarnation)) {
            return false;
        }
        rows.remove(nodeId);
        return true;
    }

    private record Row(NodeInfo node, Instant heartbeat, int capacityFree) {}
}
