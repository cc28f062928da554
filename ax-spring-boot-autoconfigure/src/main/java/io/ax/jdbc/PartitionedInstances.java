package io.ax.jdbc;

import static io.ax.jdbc.RowMappers.INSTANCE;
import static io.ax.jdbc.RowMappers.OWNED;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.PartitionCountMismatchException;
import io.ax.core.cluster.PartitionLeases;
import io.ax.core.cluster.Partitions;
import io.ax.core.store.OwnedInstance;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The instance rows by their {@code partition_id}: an owner's reads of its partitions, and the filling of rows
 * written without a partition. The store's half that partitioned ownership added; {@link JdbcInstanceStore} answers
 * the SPI with it. Thread-safe.
 */
final class PartitionedInstances {

    /** The states whose rows are given a partition: those an instance can still leave, unfinished ones first. */
    private static final List<InstanceState> FILLED_STATES = Arrays.stream(InstanceState.values())
            .filter(s -> !s.successors().isEmpty())
            .sorted(Comparator.comparing(InstanceState::isFinal))
            .toList();

    private static final int[] FILL_TYPES = {Types.INTEGER, Types.VARCHAR};

    private final JdbcTemplate jdbc;
    private final JdbcBatches batches;
    private final Transactions tx;
    private final Sql sql;

    PartitionedInstances(JdbcTemplate jdbc, JdbcBatches batches, Transactions tx, Sql sql) {
        this.jdbc = jdbc;
        this.batches = batches;
        this.tx = tx;
        this.sql = sql;
    }

    /** See {@link io.ax.core.store.InstanceStore#findScheduled(Instant, Instant, String, int, int[])}. */
    List<TaskInstance> findScheduled(Instant before, Instant afterTime, String afterId, int limit, int[] partitions) {
        Objects.requireNonNull(before, "before");
        int[] listed = distinct(partitions);
        if (limit <= 0 || listed.length == 0) {
            return List.of();
        }
        Long after = afterTime == null ? null : Micros.of(afterTime);
        return jdbc.query(
                sql.findScheduled(listed.length, after != null),
                INSTANCE,
                Binder.dueArgs(listed, Micros.above(before), after, afterId, limit));
    }

    /** See {@link io.ax.core.store.InstanceStore#oldestDue(Instant, int[])}. */
    Instant oldestDue(Instant now, int[] partitions) {
        int[] listed = distinct(partitions);
        if (listed.length == 0) {
            return null;
        }
        Object[] args = new Object[listed.length + 1];
        for (int i = 0; i < listed.length; i++) {
            args[i] = listed[i];
        }
        args[listed.length] = Micros.of(now);
        List<Long> first = jdbc.queryForList(sql.oldestDue(listed.length), Long.class, args);
        return first.isEmpty() ? null : Micros.instant(first.get(0));
    }

    /** See {@link io.ax.core.store.InstanceStore#findOwned(Set, String, int, int[])}. */
    List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit, int[] partitions) {
        return find(states, owner, Set.of(), limit, partitions);
    }

    /** See {@link io.ax.core.store.InstanceStore#findHeldByNoneOf}. */
    List<OwnedInstance> findHeldByNoneOf(Set<InstanceState> states, Set<String> holders, int limit, int[] partitions) {
        return find(states, null, Objects.requireNonNull(holders, "holders"), limit, partitions);
    }

    private List<OwnedInstance> find(
            Set<InstanceState> states, String owner, Set<String> leftOut, int limit, int[] partitions) {
        Objects.requireNonNull(states, "states");
        int[] listed = distinct(partitions);
        if (states.isEmpty() || limit <= 0 || listed.length == 0) {
            return List.of();
        }
        List<String> left = List.copyOf(leftOut);
        return jdbc.query(
                sql.findOwned(states.size(), listed.length, left.size()),
                Binder.ownedArgs(owner, states, listed, left, limit),
                Binder.ownedTypes(states.size(), listed.length, left.size()),
                OWNED);
    }

    /**
     * See {@link io.ax.core.store.InstanceStore#fillPartitions}.
     *
     * @param known the count the store writes new rows with, 0 when it does not know one
     */
    int fill(int count, int limit, int known) {
        Partitions.requireCount(count);
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        if (known != 0 && known != count) {
            throw new PartitionCountMismatchException(known, count);
        }
        Integer filled = tx.execute(() -> {
            List<Object[]> rows = new ArrayList<>();
            for (InstanceState state : FILLED_STATES) {
                if (rows.size() >= limit) {
                    break;
                }
                for (TaskInstance in : jdbc.query(sql.withoutPartition, INSTANCE, state.name(), limit - rows.size())) {
                    rows.add(new Object[] {Partitions.of(in, count), in.id()});
                }
            }
            // in the order of the ids, so that two nodes filling at once lock the rows they share in the same order;
            // a row another node filled meanwhile is left as it is, with the same value: counted all the same
            rows.sort(Comparator.comparing(row -> (String) row[1]));
            batches.run(sql.fillPartition, rows, FILL_TYPES);
            return rows.size();
        });
        return filled == null ? 0 : filled;
    }

    /** The partitions asked for, each once; numbers no partition can have are left out, as they match no row. */
    private static int[] distinct(int[] partitions) {
        Objects.requireNonNull(partitions, "partitions");
        return Arrays.stream(partitions)
                .filter(p -> p >= 0 && p < PartitionLeases.MAX_PARTITIONS)
                .distinct()
                .toArray();
    }
}
