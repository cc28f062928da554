package io.ax.jdbc;

import io.ax.core.AuditEntry;
import io.ax.core.AxException;
import io.ax.core.Transition;
import io.ax.core.store.NewFire;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Groups as JDBC batches, one statement per row: for H2, MySQL and MariaDB, where a statement that fails on a
 * duplicate key undoes only itself, not the transaction around it.
 */
final class JdbcBatchWriter implements GroupWriter {

    private final JdbcTemplate jdbc;
    private final JdbcBatches batches;
    private final Sql sql;
    private final Dialect dialect;
    /**
     * Whether the driver takes fenced inserts ({@code INSERT ... SELECT}, a leader's or an owner's) as one batch.
     * MariaDB's driver sends a batch of inserts in the server's bulk protocol, which refuses {@code INSERT ... SELECT}
     * (error 1295, "not supported in the prepared statement protocol yet"): learnt at the first refusal, after which
     * such groups go one statement per row.
     */
    private volatile boolean fencedInsertsBatch = true;

    JdbcBatchWriter(JdbcTemplate jdbc, Sql sql, Dialect dialect) {
        this.jdbc = jdbc;
        this.batches = new JdbcBatches(jdbc);
        this.sql = sql;
        this.dialect = dialect;
    }

    /**
     * One row's insert: the statement, its arguments and their types, and whether the statement is fenced, an {@code
     * INSERT ... SELECT}, which MariaDB's bulk protocol refuses.
     */
    private record Insert(String statement, Object[] args, int[] types, boolean selects) {}

    /**
     * {@inheritDoc}
     *
     * <p>The fast path is one batch per run of rows written by the same statement (one run unless fires fenced by
     * their partitions and fires without that fence are mixed), in order; if it meets a duplicate, each row is checked
     * and inserted on its own.
     */
    @Override
    public boolean[] insertInstances(List<NewFire> fires, long fence, int partitions) {
        boolean[] written = new boolean[fires.size()];
        List<Insert> rows =
                fires.stream().map(f -> insert(f, fence, partitions)).toList();
        boolean selects = rows.stream().anyMatch(Insert::selects);
        if (selects && rows.size() > 1 && !fencedInsertsBatch) {
            return insertEach(fires, rows, written);
        }
        try {
            int from = 0;
            for (int i = 1; i <= rows.size(); i++) {
                if (i < rows.size()
                        && rows.get(i).statement().equals(rows.get(from).statement())) {
                    continue;
                }
                List<Object[]> run =
                        rows.subList(from, i).stream().map(Insert::args).toList();
                int[] counts = batches.run(
                        rows.get(from).statement(), run, rows.get(from).types());
                for (int k = 0; k < counts.length; k++) {
                    written[from + k] = counts[k] != 0; // 0: fenced out (a duplicate throws)
                }
                from = i;
            }
        } catch (DataAccessException e) {
            if (selects && refusedInBulk(e)) {
                fencedInsertsBatch = false;
                return insertEach(fires, rows, written);
            }
            if (!dialect.isDuplicateKey(e)) {
                throw e;
            }
            insertEach(fires, rows, written);
        }
        return written;
    }

    /** How a fire is written: plain, fenced by the leader's epoch, by its partition's, or by both. */
    private Insert insert(NewFire fire, long fence, int partitions) {
        Object[] args = Binder.instanceArgs(fire.instance(), fire.payload(), partitions);
        if (fire.partitionEpoch() > 0) {
            return fence > 0
                    ? new Insert(
                            sql.insertInstanceInPartitionFenced,
                            Binder.inPartition(args, fire.partitionEpoch(), fence),
                            Binder.INSERT_TYPES_IN_PARTITION_FENCED,
                            true)
                    : new Insert(
                            sql.insertInstanceInPartition,
                            Binder.inPartition(args, fire.partitionEpoch(), 0),
                            Binder.INSERT_TYPES_IN_PARTITION,
                            true);
        }
        return fence > 0
                ? new Insert(sql.insertInstanceFenced, Binder.fenced(args, fence), Binder.INSERT_TYPES_FENCED, true)
                : new Insert(sql.insertInstance, args, Binder.INSERT_TYPES, false);
    }

    /**
     * One statement per row, each row that is there already (the batch got as far as it, or an earlier attempt
     * wrote it) counted as written, and a duplicate as not.
     */
    private boolean[] insertEach(List<NewFire> fires, List<Insert> rows, boolean[] written) {
        for (int i = 0; i < written.length; i++) {
            if (exists(fires.get(i))) {
                written[i] = true;
                continue;
            }
            Insert row = rows.get(i);
            try {
                written[i] = jdbc.update(row.statement(), row.args(), row.types()) == 1;
            } catch (DataAccessException duplicate) {
                if (!dialect.isDuplicateKey(duplicate)) {
                    throw duplicate;
                }
                written[i] = false;
            }
        }
        return written;
    }

    /** MariaDB's refusal of a statement in its bulk protocol (ER_UNSUPPORTED_PS), among the causes. */
    private static boolean refusedInBulk(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.sql.SQLException e && e.getErrorCode() == 1295) {
                return true;
            }
        }
        return false;
    }

    private boolean exists(NewFire fire) {
        Integer n = jdbc.queryForObject(
                sql.instanceExists, Integer.class, fire.instance().id());
        return n != null && n > 0;
    }

    /**
     * {@inheritDoc}
     *
     * <p>One conditional update per change, in order, so a later change of the same instance sees the earlier one.
     *
     * @throws AxException when the driver does not report the row count of each update
     */
    @Override
    public boolean[] transitionAll(List<Transition> transitions) {
        // rows locked in one order, by id, by every group of every node: two groups never wait for each other. The
        // sort is stable: changes of one instance keep their order
        Integer[] order = new Integer[transitions.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(
                order, java.util.Comparator.comparing(i -> transitions.get(i).instanceId()));
        List<Transition> sorted =
                java.util.Arrays.stream(order).map(transitions::get).toList();
        // a group with no change fenced by its partition runs the statement it always ran
        boolean inPartition = transitions.stream().anyMatch(t -> t.partitionEpoch() > 0);
        int[] sortedCounts = inPartition
                ? batches.run(
                        sql.updateStateInPartition,
                        sorted.stream().map(Binder::updateArgsInPartition).toList(),
                        Binder.UPDATE_TYPES_IN_PARTITION)
                : batches.run(
                        sql.updateState, sorted.stream().map(Binder::updateArgs).toList(), Binder.UPDATE_TYPES);
        int[] counts = new int[sortedCounts.length];
        for (int k = 0; k < order.length; k++) {
            counts[order[k]] = sortedCounts[k];
        }
        boolean[] applied = new boolean[counts.length];
        List<Object[]> audits = new ArrayList<>(counts.length);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == Statement.SUCCESS_NO_INFO) {
                throw new AxException("The JDBC driver does not report row counts of batched updates;"
                        + " AX needs them to know which conditional update won");
            }
            applied[i] = counts[i] == 1;
            if (applied[i]) {
                audits.add(Binder.auditArgs(Binder.auditEntry(transitions.get(i))));
            }
        }
        batches.run(sql.insertAudit, audits);
        return applied;
    }

    @Override
    public void insertAudits(List<AuditEntry> entries) {
        batches.run(sql.insertAudit, entries.stream().map(Binder::auditArgs).toList());
    }

    @Override
    public void updateNextFires(List<NextFire> fires) {
        batches.run(
                sql.updateTaskNextFire, fires.stream().map(Binder::nextFireArgs).toList());
    }
}
