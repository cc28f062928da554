package io.ax.jdbc;

import io.ax.core.AxException;
import io.ax.core.cluster.PartitionCountMismatchException;
import io.ax.core.cluster.PartitionLease;
import io.ax.core.cluster.PartitionLeases;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntConsumer;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The partitions in the {@code <prefix>partition} table, one row each, created by the first node and changed only by
 * conditional {@code UPDATE}s whose every comparison of times is made on the database's clock inside the statement.
 * An owner's liveness is its row in {@code <prefix>node} (of the same incarnation) heartbeating within the lease, so
 * ownership costs no statement of its own between moves. Thread-safe.
 *
 * <p>Create the tables first with {@link JdbcSchema#migrate}. Every method throws Spring's {@code
 * DataAccessException} when the database cannot be reached.
 */
public final class JdbcPartitionLeases implements PartitionLeases {

    private final JdbcTemplate jdbc;
    private final Transactions tx;
    private final ClusterSql sql;
    /** Told the count each time the table answers with it: the store that writes it into its instances. */
    private final IntConsumer counted;

    /**
     * @param dataSource where the tables live
     * @param tablePrefix the prefix of AX's tables, e.g. {@code ax_}
     * @throws IllegalArgumentException when the prefix is not a safe identifier start
     */
    public JdbcPartitionLeases(DataSource dataSource, String tablePrefix) {
        this(dataSource, tablePrefix, count -> {});
    }

    /** Partitions that tell {@code counted} the count the table records, each time {@link #partitions} reads it. */
    JdbcPartitionLeases(DataSource dataSource, String tablePrefix, IntConsumer counted) {
        Objects.requireNonNull(dataSource, "dataSource");
        this.jdbc = new JdbcTemplate(dataSource);
        this.tx = new Transactions(dataSource, jdbc.getExceptionTranslator());
        this.sql = new ClusterSql(JdbcSchema.checkPrefix(tablePrefix), Vendor.dialectOf(dataSource));
        this.counted = Objects.requireNonNull(counted, "counted");
    }

    @Override
    public int partitions(int configured) {
        if (configured < 1 || configured > MAX_PARTITIONS) {
            throw new IllegalArgumentException(
                    "ax.cluster.partitions must be between 1 and " + MAX_PARTITIONS + ", was " + configured);
        }
        int recorded = recorded();
        if (recorded == 0) {
            try {
                // all of them or none: a node that stops halfway must not leave a count that no node is set to
                tx.run(() -> {
                    List<Object[]> rows = new ArrayList<>(configured);
                    for (int p = 0; p < configured; p++) {
                        rows.add(new Object[] {p});
                    }
                    jdbc.batchUpdate(sql.insertPartition, rows);
                });
            } catch (DuplicateKeyException another) {
                // another node created them first, perhaps with another count: what it recorded decides
            }
            recorded = recorded();
        }
        // the store learns the count of the cluster's rows: the recorded one, also when this node's differs
        counted.accept(recorded);
        if (recorded != configured) {
            throw new PartitionCountMismatchException(recorded, configured);
        }
        return recorded;
    }

    /** The partition count the table records; 0 while it has none. */
    int recorded() {
        return jdbc.query(sql.countPartitions, rs -> {
            rs.next();
            int count = rs.getInt(1);
            int highest = rs.getInt(2);
            if (highest != count - 1) {
                throw new AxException("AX's partition table holds " + count + " rows numbered up to " + highest
                        + ", not 0 to " + (count - 1) + ": it was changed by hand; restore it from the migration");
            }
            return count;
        });
    }

    @Override
    public List<PartitionLease> read(Duration lease) {
        long us = micros(lease);
        return jdbc.query(
                sql.readPartitions,
                (rs, row) -> new PartitionLease(
                        rs.getInt(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getLong(4),
                        rs.getInt(6) == 1,
                        Duration.of(Math.max(0, rs.getLong(5)), ChronoUnit.MICROS)),
                us);
    }

    @Override
    public Optional<PartitionLease> take(int partition, String node, String incarnation, Duration lease) {
        return takeAll(List.of(partition), node, incarnation, lease).stream().findFirst();
    }

    /**
     * A read finds which partitions of the list are free for this process, at which epochs; one batch takes each at
     * the epoch read; a last read says which are now this process's. A node that starts alone takes every partition
     * in three round trips, not in some per partition.
     *
     * <p>No transaction around them, as for the leader lease: a process frozen between two of them must not keep a
     * row locked, and a pause longer than the lease in between shows another owner: then it was lost. The take waits
     * for the fenced writes in flight on its partition (they hold its row shared) and locks nothing else.
     */
    @Override
    public List<PartitionLease> takeAll(
            java.util.Collection<Integer> partitions, String node, String incarnation, Duration lease) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(incarnation, "incarnation");
        long us = micros(lease);
        List<PartitionLease> taken = new ArrayList<>();
        List<Integer> ids = List.copyOf(new java.util.TreeSet<>(partitions));
        for (int from = 0; from < ids.size(); from += JdbcBatches.SIZE) {
            List<Integer> chunk = ids.subList(from, Math.min(ids.size(), from + JdbcBatches.SIZE));
            String marks = String.join(", ", java.util.Collections.nCopies(chunk.size(), "?"));
            List<Object> freeArgs = new ArrayList<>(List.of(us, node, incarnation, us));
            freeArgs.addAll(chunk);
            List<Object[]> takes = jdbc.query(
                    sql.takeablePartitionsPrefix + marks + ")",
                    (rs, row) -> new Object[] {node, incarnation, rs.getInt(1), rs.getLong(2)},
                    freeArgs.toArray());
            if (takes.isEmpty()
                    || Arrays.stream(jdbc.batchUpdate(sql.takePartition, takes))
                                    .filter(JdbcPartitionLeases::applied)
                                    .count()
                            == 0) {
                continue;
            }
            List<Object> readArgs = new ArrayList<>(List.of(node, incarnation));
            readArgs.addAll(chunk);
            taken.addAll(jdbc.query(
                    sql.ownedPartitionsPrefix + marks + ")",
                    (rs, row) -> new PartitionLease(
                            rs.getInt(1),
                            node,
                            incarnation,
                            rs.getLong(2),
                            true,
                            Duration.of(Math.max(0, rs.getLong(3)), ChronoUnit.MICROS)),
                    readArgs.toArray()));
        }
        return taken;
    }

    /** Conditional updates, one per partition in id order: every partition still held at its epoch is given up. */
    @Override
    public List<Integer> releaseAll(java.util.Map<Integer, Long> owned, String node) {
        Objects.requireNonNull(node, "node");
        // one statement and one row lock at a time, never a batch of them in one transaction: the owner's last
        // writes hold its partitions' rows shared, each as its rows come, and a batch that locked many of them
        // at once could close a cycle with two of those writes (deadlock detected, and no partition given up)
        List<Integer> released = new ArrayList<>();
        for (java.util.Map.Entry<Integer, Long> p : new java.util.TreeMap<>(owned).entrySet()) {
            if (once(jdbc.update(sql.releasePartition, p.getKey(), node, p.getValue()))) {
                released.add(p.getKey());
            }
        }
        return released;
    }

    @Override
    public int raiseEpochs(java.util.Map<Integer, Long> seen) {
        List<Object[]> rows = new ArrayList<>(seen.size());
        seen.forEach((p, epoch) -> rows.add(new Object[] {epoch, p, epoch}));
        if (rows.isEmpty()) {
            return 0;
        }
        int raised = 0;
        for (int rowsChanged : jdbc.batchUpdate(sql.raisePartition, rows)) {
            raised += applied(rowsChanged) ? 1 : 0;
        }
        return raised;
    }

    @Override
    public boolean release(int partition, String node, long epoch) {
        Objects.requireNonNull(node, "node");
        return once(jdbc.update(sql.releasePartition, partition, node, epoch));
    }

    @Override
    public boolean holds(int partition, String node, long epoch) {
        Objects.requireNonNull(node, "node");
        Integer rows = jdbc.queryForObject(sql.holdsPartition, Integer.class, partition, node, epoch);
        return rows != null && rows == 1;
    }

    /** Whether one statement of a batch on a partition's row changed it; a driver may not say, and then it did. */
    private static boolean applied(int rows) {
        return rows == java.sql.Statement.SUCCESS_NO_INFO || once(rows);
    }

    /** Whether a statement on one partition's row changed it: 0 rows is a lost race, more is a broken table. */
    private static boolean once(int rows) {
        if (rows > 1) {
            throw new AxException("Bug: a partition statement changed " + rows + " rows, not one");
        }
        return rows == 1;
    }

    private static long micros(Duration lease) {
        return Micros.ofLease(lease);
    }
}
