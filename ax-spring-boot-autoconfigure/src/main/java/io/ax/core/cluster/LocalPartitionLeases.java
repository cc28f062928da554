package io.ax.core.cluster;

import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Partitions in this JVM's memory, for nodes that share no database: engines in one process, or tests that drive
 * time with a fake clock. It keeps the promises of the JDBC partitions, with {@code clock.instant()} as the store's
 * clock and {@code registry} (on the same clock) as the node rows whose heartbeats keep an owner's partitions.
 * Thread-safe: every method holds the object's lock.
 */
public final class LocalPartitionLeases implements PartitionLeases {

    private final AxClock clock;
    private final NodeRegistry registry;
    /** Told the count each time {@link #partitions} answers with it: the store that writes it into its rows. */
    private final IntConsumer counted;
    /** By partition; null until the count is recorded. Guarded by this. */
    private Row[] rows;

    /**
     * @param clock the store's clock
     * @param registry the node rows of the same store: an owner is alive while its row heartbeats within the lease
     */
    public LocalPartitionLeases(AxClock clock, NodeRegistry registry) {
        this(clock, registry, count -> {});
    }

    /**
     * Partitions whose count, once recorded or read, is told to the store that keeps them beside its rows: it writes
     * each new row's partition with it.
     *
     * @param clock the store's clock
     * @param registry the node rows of the same store: an owner is alive while its row heartbeats within the lease
     * @param counted told the count each time {@link #partitions} answers with it, under this object's lock: it must
     *     be quick and must not call back
     */
    public LocalPartitionLeases(AxClock clock, NodeRegistry registry, IntConsumer counted) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.counted = Objects.requireNonNull(counted, "counted");
    }

    @Override
    public synchronized int partitions(int configured) {
        if (configured < 1 || configured > MAX_PARTITIONS) {
            throw new IllegalArgumentException(
                    "ax.cluster.partitions must be between 1 and " + MAX_PARTITIONS + ", was " + configured);
        }
        if (rows == null) {
            rows = new Row[configured];
            Instant now = clock.instant();
            for (int p = 0; p < configured; p++) {
                rows[p] = new Row(null, null, 0, now);
            }
        }
        // the store learns the count whichever node asks: the recorded one, also when this node's differs
        counted.accept(rows.length);
        if (rows.length != configured) {
            throw new PartitionCountMismatchException(rows.length, configured);
        }
        return rows.length;
    }

    @Override
    public synchronized List<PartitionLease> read(Duration lease) {
        requirePositive(lease);
        List<PartitionLease> all = new ArrayList<>();
        if (rows == null) {
            return all;
        }
        List<NodeStatus> nodes = registry.nodes();
        Instant now = clock.instant();
        for (int p = 0; p < rows.length; p++) {
            all.add(lease(p, rows[p], nodes, lease, now));
        }
        return all;
    }

    @Override
    public synchronized Optional<PartitionLease> take(int partition, String node, String incarnation, Duration lease) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(incarnation, "incarnation");
        requirePositive(lease);
        if (rows == null || partition < 0 || partition >= rows.length) {
            return Optional.empty();
        }
        List<NodeStatus> nodes = registry.nodes();
        Row row = rows[partition];
        boolean free = row.owner == null || !alive(nodes, row.owner, row.incarnation, lease);
        if (!free || !alive(nodes, node, incarnation, lease)) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        rows[partition] = new Row(node, incarnation, row.epoch + 1, now);
        return Optional.of(lease(partition, rows[partition], nodes, lease, now));
    }

    @Override
    public synchronized boolean release(int partition, String node, long epoch) {
        Objects.requireNonNull(node, "node");
        if (!holds(partition, node, epoch)) {
            return false;
        }
        rows[partition] = new Row(null, null, epoch, clock.instant());
        return true;
    }

    @Override
    public synchronized boolean holds(int partition, String node, long epoch) {
        Objects.requireNonNull(node, "node");
        return rows != null
                && partition >= 0
                && partition < rows.length
                && node.equals(rows[partition].owner)
                && rows[partition].epoch == epoch;
    }

    /**
     * The epoch {@code partition} is at now: that of its last take, which a release keeps; 0 before its first take;
     * -1 when there is no such partition (the count not recorded yet, or a number outside it). What a write fenced by
     * the partition compares its epoch with.
     */
    public synchronized long epoch(int partition) {
        return rows == null || partition < 0 || partition >= rows.length ? -1 : rows[partition].epoch;
    }

    /**
     * Runs {@code write} while no partition moves, and returns what it returns: a take or release of any partition
     * waits until it is done, as a move in the database waits for every write that holds the partition's row with a
     * shared lock. So a write that checks its partition's {@link #epoch} inside comes either wholly before a take of
     * that partition or wholly after it, and the new owner sees it. The write must be quick, and must not wait for
     * another thread that calls this object.
     */
    public synchronized <T> T whileUnmoved(Supplier<T> write) {
        return write.get();
    }

    private static PartitionLease lease(int partition, Row row, List<NodeStatus> nodes, Duration lease, Instant now) {
        return new PartitionLease(
                partition,
                row.owner,
                row.incarnation,
                row.epoch,
                row.owner != null && alive(nodes, row.owner, row.incarnation, lease),
                Duration.between(row.moved, now));
    }

    private static boolean alive(List<NodeStatus> nodes, String node, String incarnation, Duration lease) {
        return nodes.stream()
                .anyMatch(n -> n.nodeId().equals(node) && n.incarnation().equals(incarnation) && n.aliveWithin(lease));
    }

    private static void requirePositive(Duration lease) {
        Objects.requireNonNull(lease, "lease");
        if (lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("a lease lasts a positive duration, was " + lease);
        }
    }

    private record Row(String owner, String incarnation, long epoch, Instant moved) {}
}
