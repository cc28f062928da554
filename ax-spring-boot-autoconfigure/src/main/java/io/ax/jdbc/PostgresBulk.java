package io.ax.jdbc;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.NewFire;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Set-based statements for PostgreSQL: a whole group of rows goes as arrays into one statement ({@code unnest}),
 * so thousands of instances cost a handful of round trips instead of one statement each. No statement fails on a
 * duplicate key ({@code ON CONFLICT DO NOTHING}): on PostgreSQL that failure would abort the whole transaction.
 */
final class PostgresBulk implements GroupWriter {

    /**
     * How many payload bytes one set-based insert carries at most (unless a single payload is larger): a group of
     * thousands of large payloads goes as several statements instead of one message of hundreds of megabytes.
     */
    private static final int PAYLOAD_BYTES = 8 * 1024 * 1024;

    private final JdbcTemplate jdbc;
    private final String insertInstances;
    private final String insertInstancesFenced;
    private final String insertInstancesInPartitions;
    private final String insertInstancesInPartitionsFenced;
    private final String updateStatesOneFence;
    private final String updateStates;
    private final String updateStatesOneFenceInPartitions;
    private final String updateStatesInPartitions;
    private final String insertAudits;
    private final String updateNextFires;

    PostgresBulk(JdbcTemplate jdbc, String prefix) {
        this.jdbc = jdbc;
        // ORDER BY the ordinality: of two new rows with the same key, the first one given is written
        String leaderFence = "EXISTS (SELECT 1 FROM " + prefix + "leader l WHERE l.name = 'leader' AND l.epoch = ?)";
        insertInstances = insertInstances(prefix, false, null);
        insertInstancesFenced = insertInstances(prefix, false, leaderFence);
        // Each row fenced by its partition's epoch (0: not), read with the shared lock of ClusterSql.partitionFence,
        // so that a take of the partition waits for the statement and a statement that meets a take in flight waits
        // for it and reads the new epoch. The partition is the one the store computed for the row (null: the fence
        // fails). Only for groups that carry such fences: the others run the statements above as they did.
        insertInstancesInPartitions = insertInstances(prefix, true, null);
        insertInstancesInPartitionsFenced = insertInstances(prefix, true, leaderFence);
        // owner, owner and attempt conditions and fence as in Sql.updateState, one value per row
        String update = "UPDATE " + prefix + "instance AS i SET state = u.to_state, attempt = u.attempt, node = u.node,"
                + " updated_us = u.at_us, owner = CASE WHEN u.clear_owner = 1 THEN NULL ELSE COALESCE(u.owner, i.owner) END,"
                + " epoch = CASE WHEN u.fence > 0 THEN u.fence%s ELSE i.epoch END"
                + " FROM unnest(?::varchar[], ?::varchar[], ?::varchar[], ?::int[], ?::varchar[], ?::bigint[],"
                + " ?::bigint[], ?::int[], ?::varchar[], ?::varchar[], ?::bigint[], ?::int[]%s)"
                + " AS u(id, from_state, to_state, attempt, node, at_us, due_us, clear_owner, owner, expected_owner, fence,"
                + " expected_attempt%s)"
                + " WHERE i.id = u.id AND i.state = u.from_state"
                + " AND (u.due_us IS NULL OR i.scheduled_us = u.due_us)"
                + " AND (u.expected_owner IS NULL OR i.owner = u.expected_owner)"
                + " AND (i.state <> 'RUNNING' OR i.attempt = u.expected_attempt)"
                + " AND (u.fence = 0 OR EXISTS (SELECT 1 FROM " + prefix + "leader l"
                + " WHERE l.name = 'leader' AND l.epoch = %s))%s RETURNING i.id";
        updateStates = update.formatted("", "", "", "u.fence", "");
        // the usual group: every fenced change carries the same epoch, checked once for the statement, not per row
        updateStatesOneFence = update.formatted("", "", "", "?", "");
        // each change fenced by the epoch of its row's own partition (0: not), which the row records unless the change
        // carries a leader's epoch too, as in Sql.updateStateInPartition
        String partitionFence = " AND (u.partition_epoch = 0 OR EXISTS (SELECT 1 FROM " + prefix + "partition pt"
                + " WHERE pt.id = i.partition_id AND pt.epoch = u.partition_epoch FOR SHARE))";
        String partitionEpoch = " WHEN u.partition_epoch > 0 THEN u.partition_epoch";
        updateStatesInPartitions =
                update.formatted(partitionEpoch, ", ?::bigint[]", ", partition_epoch", "u.fence", partitionFence);
        updateStatesOneFenceInPartitions =
                update.formatted(partitionEpoch, ", ?::bigint[]", ", partition_epoch", "?", partitionFence);
        insertAudits =
                "INSERT INTO " + prefix + "audit (instance_id, from_state, to_state, node, attempt, at_us, reason)"
                        + " SELECT id, f, t, n, a, at, r FROM unnest(?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[],"
                        + " ?::int[], ?::bigint[], ?::varchar[]) WITH ORDINALITY AS u(id, f, t, n, a, at, r, o) ORDER BY o";
        updateNextFires = "UPDATE " + prefix + "task AS k SET next_fire_us = u.next_us, updated_us = u.at_us"
                + " FROM unnest(?::varchar[], ?::bigint[], ?::bigint[]) AS u(name, next_us, at_us) WHERE k.name = u.name";
    }

    /**
     * The set-based insert: conditional on the leader's epoch when {@code leaderFence} is set (bound after the arrays),
     * and on each row's partition's epoch (one more array) when {@code inPartitions}.
     */
    private static String insertInstances(String prefix, boolean inPartitions, String leaderFence) {
        String where = "";
        if (inPartitions) {
            where = " WHERE (r.pe = 0 OR EXISTS (SELECT 1 FROM " + prefix + "partition f"
                    + " WHERE f.id = r.pt AND f.epoch = r.pe FOR SHARE))";
        }
        if (leaderFence != null) {
            where += (where.isEmpty() ? " WHERE " : " AND ") + leaderFence;
        }
        return "INSERT INTO " + prefix + "instance (" + Sql.INSERT_COLUMNS + ")"
                + " SELECT i, t, s, st, a, n, u, o, k, tp, pr, p, pt FROM unnest(?::varchar[], ?::varchar[],"
                + " ?::bigint[], ?::varchar[], ?::int[], ?::varchar[], ?::bigint[], ?::varchar[], ?::varchar[],"
                + " ?::varchar[], ?::int[], ?::bytea[], ?::int[]" + (inPartitions ? ", ?::bigint[]" : "")
                + ") WITH ORDINALITY AS r(i, t, s, st, a, n, u, o, k, tp, pr, p, pt" + (inPartitions ? ", pe" : "")
                + ", ord)" + where
                + " ORDER BY ord ON CONFLICT (task_name, dedupe_key) DO NOTHING RETURNING id";
    }

    /**
     * {@inheritDoc}
     *
     * <p>In as few statements as their payloads allow, duplicates left out by the database.
     */
    @Override
    public boolean[] insertInstances(List<NewFire> fires, long fence, int partitions) {
        Set<String> ids = new HashSet<>();
        int from = 0;
        long bytes = 0;
        for (int i = 0; i < fires.size(); i++) {
            byte[] payload = fires.get(i).payload();
            int size = payload == null ? 0 : payload.length;
            if (i > from && bytes + size > PAYLOAD_BYTES) {
                ids.addAll(insertGroup(fires.subList(from, i), fence, partitions));
                from = i;
                bytes = 0;
            }
            bytes += size;
        }
        ids.addAll(insertGroup(fires.subList(from, fires.size()), fence, partitions));
        boolean[] written = new boolean[fires.size()];
        for (int i = 0; i < written.length; i++) {
            written[i] = ids.contains(fires.get(i).instance().id());
        }
        return written;
    }

    /** One statement for the group; returns the ids written. */
    private Set<String> insertGroup(List<NewFire> fires, long fence, int partitions) {
        int n = fires.size();
        String[] ids = new String[n];
        String[] tasks = new String[n];
        Long[] scheduled = new Long[n];
        String[] states = new String[n];
        Integer[] attempts = new Integer[n];
        String[] nodes = new String[n];
        Long[] updated = new Long[n];
        String[] origins = new String[n];
        String[] keys = new String[n];
        String[] traceParents = new String[n];
        Integer[] priorities = new Integer[n];
        byte[][] bytes = new byte[n][];
        Integer[] partitionIds = new Integer[n];
        for (int i = 0; i < n; i++) {
            TaskInstance in = fires.get(i).instance();
            ids[i] = in.id();
            tasks[i] = in.taskName();
            scheduled[i] = Micros.of(in.scheduledTime());
            states[i] = in.state().name();
            attempts[i] = in.attempt();
            nodes[i] = in.node();
            updated[i] = Micros.of(in.updatedAt());
            origins[i] = in.origin().name();
            keys[i] = in.key();
            traceParents[i] = in.traceParent();
            priorities[i] = in.priority();
            bytes[i] = fires.get(i).payload();
            partitionIds[i] = Binder.partition(in, partitions);
        }
        // a leader's fires carry its epoch, checked in the same statement; other writers' fires carry none
        boolean fenced = fence > 0;
        long[] scalars = fenced ? new long[] {fence} : new long[0];
        Long[] partitionEpochs = new Long[n];
        boolean inPartitions = false;
        for (int i = 0; i < n; i++) {
            partitionEpochs[i] = fires.get(i).partitionEpoch();
            inPartitions |= partitionEpochs[i] > 0;
        }
        if (inPartitions) {
            return returningIds(
                    fenced ? insertInstancesInPartitionsFenced : insertInstancesInPartitions,
                    scalars,
                    ids,
                    tasks,
                    scheduled,
                    states,
                    attempts,
                    nodes,
                    updated,
                    origins,
                    keys,
                    traceParents,
                    priorities,
                    bytes,
                    partitionIds,
                    partitionEpochs);
        }
        return returningIds(
                fenced ? insertInstancesFenced : insertInstances,
                scalars,
                ids,
                tasks,
                scheduled,
                states,
                attempts,
                nodes,
                updated,
                origins,
                keys,
                traceParents,
                priorities,
                bytes,
                partitionIds);
    }

    /**
     * Applies transitions as if one after the other. An instance may appear more than once (the start and the end
     * of an attempt): its consecutive changes that follow on from each other (each one's {@code from} is the last
     * one's {@code to}) go as one update from the first {@code from} to the last {@code to}, with one audit row per
     * change. If that update finds the instance elsewhere, only its first change failed: the rest are tried again
     * in the next round, against the state the instance really has, as they would have been one by one.
     *
     * @return per transition, whether it applied
     */
    @Override
    public boolean[] transitionAll(List<Transition> transitions) {
        boolean[] applied = new boolean[transitions.size()];
        Map<String, ArrayDeque<Integer>> pending = new LinkedHashMap<>();
        for (int i = 0; i < transitions.size(); i++) {
            pending.computeIfAbsent(transitions.get(i).instanceId(), k -> new ArrayDeque<>())
                    .add(i);
        }
        while (!pending.isEmpty()) {
            List<List<Integer>> runs = new ArrayList<>(pending.size());
            for (ArrayDeque<Integer> queue : pending.values()) {
                List<Integer> run = new ArrayList<>(2);
                run.add(queue.poll());
                while (!queue.isEmpty()
                        && follows(
                                transitions.get(run.get(0)),
                                transitions.get(run.get(run.size() - 1)),
                                transitions.get(queue.peek()))) {
                    run.add(queue.poll());
                }
                runs.add(run);
            }
            // rows locked in one order, by id, by every group of every node: two groups never wait for each other
            runs.sort(java.util.Comparator.comparing(
                    run -> transitions.get(run.get(0)).instanceId()));
            int n = runs.size();
            String[] ids = new String[n];
            String[] from = new String[n];
            String[] to = new String[n];
            Integer[] attempts = new Integer[n];
            String[] nodes = new String[n];
            Long[] at = new Long[n];
            Long[] due = new Long[n];
            Integer[] clearOwner = new Integer[n];
            String[] owners = new String[n];
            String[] expectedOwners = new String[n];
            Long[] fences = new Long[n];
            Integer[] expectedAttempts = new Integer[n];
            Long[] partitionEpochs = new Long[n];
            boolean inPartitions = false;
            for (int k = 0; k < n; k++) {
                List<Integer> run = runs.get(k);
                Transition first = transitions.get(run.get(0));
                Transition last = transitions.get(run.get(run.size() - 1));
                ids[k] = first.instanceId();
                from[k] = first.from().name();
                to[k] = last.to().name();
                attempts[k] = last.attempt();
                nodes[k] = last.node();
                at[k] = Micros.of(last.at());
                due[k] = first.dueAt() == null ? null : Micros.of(first.dueAt());
                OwnerChange change = OwnerChange.of(transitions, run);
                clearOwner[k] = change.clear() ? 1 : 0;
                owners[k] = change.owner();
                expectedOwners[k] = first.expectedOwner();
                fences[k] = first.fence();
                expectedAttempts[k] = first.attempt(); // a chain from RUNNING may go on to the next attempt
                // the chain's first change's, as its other conditions: see follows
                partitionEpochs[k] = first.partitionEpoch();
                inPartitions |= partitionEpochs[k] > 0;
            }
            long oneFence = oneFence(fences);
            long[] scalars = oneFence >= 0 ? new long[] {oneFence} : new long[0];
            Set<String> moved = inPartitions
                    ? returningIds(
                            oneFence >= 0 ? updateStatesOneFenceInPartitions : updateStatesInPartitions,
                            scalars,
                            ids,
                            from,
                            to,
                            attempts,
                            nodes,
                            at,
                            due,
                            clearOwner,
                            owners,
                            expectedOwners,
                            fences,
                            expectedAttempts,
                            partitionEpochs)
                    : returningIds(
                            oneFence >= 0 ? updateStatesOneFence : updateStates,
                            scalars,
                            ids,
                            from,
                            to,
                            attempts,
                            nodes,
                            at,
                            due,
                            clearOwner,
                            owners,
                            expectedOwners,
                            fences,
                            expectedAttempts);
            for (int k = 0; k < n; k++) {
                List<Integer> run = runs.get(k);
                if (moved.contains(ids[k])) {
                    run.forEach(i -> applied[i] = true);
                } else {
                    ArrayDeque<Integer> queue = pending.get(ids[k]);
                    for (int r = run.size() - 1; r >= 1; r--) {
                        queue.addFirst(run.get(r));
                    }
                }
            }
            pending.values().removeIf(ArrayDeque::isEmpty);
        }
        List<AuditEntry> entries = new ArrayList<>(transitions.size());
        for (int i = 0; i < applied.length; i++) {
            if (applied[i]) {
                entries.add(Binder.auditEntry(transitions.get(i)));
            }
        }
        insertAudits(entries);
        return applied;
    }

    /**
     * Whether {@code next} can go in the same update as the chain from {@code first} to {@code last}: it starts
     * where the chain ends, and its due-time condition, if any, is the chain's. The update checks the condition of
     * the chain's first change only; that is enough because no change in the chain moves the due time.
     */
    private static boolean follows(Transition first, Transition last, Transition next) {
        return next.from() == last.to()
                && (next.dueAt() == null || next.dueAt().equals(first.dueAt()))
                // an owner condition holds after the chain only if the chain set that owner itself
                && (next.expectedOwner() == null
                        || (last.to() != InstanceState.SCHEDULED
                                && next.expectedOwner().equals(last.owner())))
                && (next.fence() == 0 || next.fence() == first.fence())
                // likewise a partition's fence: the chain's is checked once, for its first change
                && (next.partitionEpoch() == 0 || next.partitionEpoch() == first.partitionEpoch());
    }

    /** The one epoch every fenced change carries (0 when none is fenced), or -1 when they carry several. */
    private static long oneFence(Long[] fences) {
        long one = 0;
        for (Long f : fences) {
            if (f != 0) {
                if (one != 0 && one != f) {
                    return -1;
                }
                one = f;
            }
        }
        return one;
    }

    /** What a chain of changes leaves in the owner column: cleared, a new owner, or (owner null) the old one kept. */
    private record OwnerChange(boolean clear, String owner) {

        static OwnerChange of(List<Transition> transitions, List<Integer> run) {
            boolean clear = false;
            String owner = null;
            for (int i : run) {
                Transition t = transitions.get(i);
                if (t.to() == InstanceState.SCHEDULED) {
                    clear = true;
                    owner = null;
                } else if (t.owner() != null) {
                    clear = false;
                    owner = t.owner();
                }
            }
            return new OwnerChange(clear, owner);
        }
    }

    @Override
    public void insertAudits(List<AuditEntry> entries) {
        int n = entries.size();
        if (n == 0) {
            return;
        }
        String[] ids = new String[n];
        String[] from = new String[n];
        String[] to = new String[n];
        String[] nodes = new String[n];
        Integer[] attempts = new Integer[n];
        Long[] at = new Long[n];
        String[] reasons = new String[n];
        for (int i = 0; i < n; i++) {
            AuditEntry e = entries.get(i);
            ids[i] = e.instanceId();
            from[i] = e.from() == null ? null : e.from().name();
            to[i] = e.to().name();
            nodes[i] = e.node();
            attempts[i] = e.attempt();
            at[i] = Micros.of(e.at());
            reasons[i] = Binder.clip(e.reason());
        }
        execute(insertAudits, ids, from, to, nodes, attempts, at, reasons);
    }

    @Override
    public void updateNextFires(List<NextFire> fires) {
        int n = fires.size();
        if (n == 0) {
            return;
        }
        String[] names = new String[n];
        Long[] next = new Long[n];
        Long[] at = new Long[n];
        for (int i = 0; i < n; i++) {
            NextFire f = fires.get(i);
            names[i] = f.taskName();
            next[i] = Micros.of(f.next());
            at[i] = Micros.of(f.at());
        }
        execute(updateNextFires, names, next, at);
    }

    private Set<String> returningIds(String sql, Object[]... columns) {
        return returningIds(sql, new long[0], columns);
    }

    /** @param scalars values bound after the arrays, in the order their parameters follow them in {@code sql} */
    private Set<String> returningIds(String sql, long[] scalars, Object[]... columns) {
        return jdbc.execute((ConnectionCallback<Set<String>>) c -> {
            try (PreparedStatement ps = prepare(c, sql, columns)) {
                for (int i = 0; i < scalars.length; i++) {
                    ps.setLong(columns.length + i + 1, scalars[i]);
                }
                return ids(ps);
            }
        });
    }

    private static Set<String> ids(PreparedStatement ps) throws SQLException {
        {
            try (ResultSet rs = ps.executeQuery()) {
                Set<String> ids = new HashSet<>();
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
                return ids;
            }
        }
    }

    private void execute(String sql, Object[]... columns) {
        jdbc.execute((ConnectionCallback<Integer>) c -> {
            try (PreparedStatement ps = prepare(c, sql, columns)) {
                return ps.executeUpdate();
            }
        });
    }

    private static PreparedStatement prepare(Connection c, String sql, Object[]... columns) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        for (int i = 0; i < columns.length; i++) {
            Object[] column = columns[i];
            String type = column instanceof Long[]
                    ? "int8"
                    : column instanceof Integer[] ? "int4" : column instanceof byte[][] ? "bytea" : "varchar";
            Array array = c.createArrayOf(type, column);
            ps.setArray(i + 1, array);
        }
        return ps;
    }
}
