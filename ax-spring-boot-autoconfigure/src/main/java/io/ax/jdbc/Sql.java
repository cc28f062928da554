package io.ax.jdbc;

import java.util.Collections;

/**
 * Every statement of the JDBC store, with the table prefix and the dialect's part applied. Parameters are always
 * bound, never inlined; a statement over a list of values gets one {@code ?} per value.
 */
final class Sql {

    /** What a {@code TaskInstance} is read from, in the order the row mapper expects. */
    static final String INSTANCE_COLUMNS =
            "id, task_name, scheduled_us, state, attempt, node, updated_us, origin, dedupe_key, trace_parent, priority";
    /** What a new instance is written with: its columns, its payload and its partition (null while unknown). */
    static final String INSERT_COLUMNS = INSTANCE_COLUMNS + ", payload, partition_id";

    final String insertInstance;
    final String insertInstanceFenced;
    final String insertInstanceInPartition;
    final String insertInstanceInPartitionFenced;
    final String currentEpoch;
    final String partitionEpoch;
    private final String partitionsOfPrefix;
    private final String findOwnedPrefix;
    final String tasksWithLiveFire;
    private final String findAllPrefix;
    private final String scheduledWithKeyPrefix;
    private final String takeoversPrefix;
    final String instanceExists;
    final String updateState;
    final String updateStateInPartition;
    final String insertAudit;
    final String findInstance;
    final String findByTask;
    final String auditTrail;
    final String updateTaskNextFire;
    final String updateTask;
    final String insertTask;
    final String findTask;
    final String findTasks;
    final String pausedTasks;
    final String setPaused;
    final String insertDeadLetter;
    final String deleteDeadLetter;
    final String deadLetters;
    final String deadLetterOf;
    final String countDeadLetters;
    private final String findByStatesPrefix;
    final String dueCount;
    final String oldestDue;
    final String findScheduledFirst;
    final String findScheduledAfter;
    private final String findScheduledInPrefix;
    private final String oldestDueInPrefix;
    private final String oldestDueInSuffix;
    private final String dueFromStart;
    private final String dueAfterCursor;
    final String withoutPartition;
    final String fillPartition;
    final String findByKey;
    final String payload;
    final String reschedule;
    final String auditReschedule;
    final String expiredFinished;
    final String expiredDead;
    private final String deleteExpiredPrefix;
    private final String deleteOrphanAuditPrefix;
    private final String deleteOrphanDeadLettersPrefix;
    final String expiredOrphanDeadLetters;
    private final String deleteExpiredDeadLettersPrefix;
    final String insertDefinition;
    final String updateDefinition;
    final String deleteDefinition;
    final String findDefinitions;
    final String insertDefinitionAudit;
    final String definitionHistory;

    Sql(String p, Dialect dialect) {
        String insertMarks = marks(INSERT_COLUMNS.split(",").length);
        insertInstance = "INSERT INTO " + p + "instance (" + INSERT_COLUMNS + ") VALUES (" + insertMarks + ")";
        // a leader's trigger decision: written only while its epoch is current, checked by the statement itself
        insertInstanceFenced = "INSERT INTO " + p + "instance (" + INSERT_COLUMNS + ")"
                + " SELECT " + insertMarks + " FROM " + p
                + "leader l WHERE l.name = 'leader' AND l.epoch = ?";
        currentEpoch = "SELECT epoch FROM " + p + "leader WHERE name = 'leader'";
        // An owner's decision: written only while the new row's partition (bound after the values; the store computed
        // it) is at the owner's epoch, read from the partition's row with the shared lock of ClusterSql.partitionFence:
        // a take of the partition waits for this insert, and an insert that meets a take in flight waits for it and
        // then reads the new epoch. Bound as: the values, the partition, its epoch[, the leader's epoch].
        String lock = dialect.sharedLock();
        insertInstanceInPartition = "INSERT INTO " + p + "instance (" + INSERT_COLUMNS + ")" + " SELECT " + insertMarks
                + " FROM " + p + "partition pt WHERE pt.id = ? AND pt.epoch = ?" + lock;
        insertInstanceInPartitionFenced = "INSERT INTO " + p + "instance (" + INSERT_COLUMNS + ")"
                + " SELECT " + insertMarks + " FROM " + p + "partition pt WHERE pt.id = ? AND pt.epoch = ?"
                + " AND EXISTS (SELECT 1 FROM " + p + "leader l WHERE l.name = 'leader' AND l.epoch = ?)" + lock;
        // what a fenced write that changed nothing reads to tell a moved partition from a lost race: locked as the
        // fence reads it, so that it sees the epoch the fence saw, not that of an older snapshot
        partitionEpoch = "SELECT epoch FROM " + p + "partition WHERE id = ?" + lock;
        partitionsOfPrefix = "SELECT id, partition_id FROM " + p + "instance WHERE id IN (";
        tasksWithLiveFire = "SELECT DISTINCT task_name FROM " + p + "instance WHERE state IN ('SCHEDULED',"
                + " 'DISPATCHED', 'RUNNING', 'FAILED', 'TIMEOUT', 'RETRYING') AND origin IN ('SERIES', 'CATCH_UP')";
        findOwnedPrefix = "SELECT " + INSTANCE_COLUMNS + ", owner, epoch FROM " + p
                + "instance WHERE (? IS NULL OR owner = ?) AND state IN (";
        findAllPrefix = "SELECT " + INSTANCE_COLUMNS + ", owner, epoch FROM " + p + "instance WHERE id IN (";
        scheduledWithKeyPrefix = "SELECT task_name, dedupe_key FROM " + p + "instance WHERE task_name IN (";
        instanceExists = "SELECT COUNT(*) FROM " + p + "instance WHERE id = ?";
        // one statement for conditional and unconditional changes, so that both batch together: a null due time
        // compares the column with itself
        // A move to SCHEDULED clears the owner (flag 1); otherwise a new owner is set or the old one kept. The owner
        // condition lets only the assigned node move its instance; the fence lets only the current leader decide.
        // The fence takes no lock on the lease row: a leader frozen inside a transaction must never keep a standby
        // from taking the lease over. A takeover committed while the statement runs is not seen by it; the state
        // and owner conditions still make such a write lose to the new leader's on the same row.
        String update = "UPDATE " + p + "instance SET state = ?, attempt = ?, node = ?, updated_us = ?,"
                + " owner = CASE WHEN ? = 1 THEN NULL ELSE COALESCE(?, owner) END,";
        // A change from RUNNING is also conditional on the attempt it names: a node's late end of an attempt that
        // another node took over must not end a later attempt of the same instance, whoever runs that one.
        String conditions = " WHERE id = ? AND state = ? AND scheduled_us = COALESCE(?, scheduled_us)"
                + " AND (? IS NULL OR owner = ?) AND (state <> 'RUNNING' OR attempt = ?)"
                + " AND (? = 0 OR EXISTS (SELECT 1 FROM " + p + "leader l WHERE l.name = 'leader' AND l.epoch = ?))";
        updateState = update + " epoch = CASE WHEN ? > 0 THEN ? ELSE epoch END" + conditions;
        // The same, also conditional on the partition of the row (its own partition_id: a row without one fails) still
        // being at the owner's epoch, with the shared lock of ClusterSql.partitionFence: unlike the leader's fence, a
        // take of the partition waits for the write, and a write that meets a take in flight reads the new epoch and
        // changes nothing. The row records that epoch, unless the change carries a leader's too. Only for changes that
        // carry that fence, so that the others run the statement above as they did; one of a group that carries none
        // binds 0. Bound as: updateState's arguments with the partition's epoch twice after the leader's first two,
        // then the partition's epoch twice at the end (see Binder.updateArgsInPartition).
        updateStateInPartition = update + " epoch = CASE WHEN ? > 0 THEN ? WHEN ? > 0 THEN ? ELSE epoch END"
                + conditions + " AND (? = 0 OR EXISTS (SELECT 1 FROM " + p + "partition pt"
                + " WHERE pt.id = " + p + "instance.partition_id AND pt.epoch = ?" + lock + "))";
        insertAudit = "INSERT INTO " + p + "audit (instance_id, from_state, to_state, node, attempt, at_us, reason)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)";
        findInstance = "SELECT " + INSTANCE_COLUMNS + " FROM " + p + "instance WHERE id = ?";
        findByTask = "SELECT " + INSTANCE_COLUMNS + " FROM " + p + "instance WHERE task_name = ?"
                + " ORDER BY scheduled_us DESC LIMIT ?";
        findByStatesPrefix = "SELECT " + INSTANCE_COLUMNS + " FROM " + p + "instance WHERE state IN (";
        // Both read the (state, scheduled_us, id, partition_id) index as one range, in its order, and stop at the
        // LIMIT. The cursor is spelt out, not a row comparison (scheduled_us, id) > (?, ?), which MariaDB scans from
        // the start of the state.
        String due = dialect.dueRange(p);
        // The backlog in the store, for health and metrics: both from the due-time index, the count stopped at its
        // cap. Bound as: the bound, [the cap]
        String notPaused = " AND task_name NOT IN (SELECT name FROM " + p + "task WHERE paused = TRUE)";
        dueCount = "SELECT COUNT(*) FROM (SELECT 1 FROM " + due + " WHERE state = 'SCHEDULED' AND scheduled_us < ?"
                + notPaused + " LIMIT ?) d";
        oldestDue =
                "SELECT MIN(scheduled_us) FROM " + due + " WHERE state = 'SCHEDULED' AND scheduled_us < ?" + notPaused;
        findScheduledFirst = "SELECT " + INSTANCE_COLUMNS + " FROM " + due
                + " WHERE state = 'SCHEDULED' AND scheduled_us < ?"
                + " ORDER BY scheduled_us, id LIMIT ?";
        findScheduledAfter = "SELECT " + INSTANCE_COLUMNS + " FROM " + due
                + " WHERE state = 'SCHEDULED' AND scheduled_us < ? AND scheduled_us >= ?"
                + " AND (scheduled_us > ? OR id > ?)"
                + " ORDER BY scheduled_us, id LIMIT ?";
        // An owner's due instances: the same range, each entry's partition checked in the index (the other owners'
        // due rows are skipped there, not read), up to the LIMIT; the cursor as above. Bound as: the partitions, the
        // bound, [the cursor,] the limit.
        findScheduledInPrefix =
                "SELECT " + INSTANCE_COLUMNS + " FROM " + due + " WHERE state = 'SCHEDULED' AND partition_id IN (";
        dueFromStart = " AND scheduled_us < ?";
        // the earliest due row of some partitions (an owner's lag): the same range, stopped at the first row that is
        // not a paused task's. Bound as: the partitions, the bound
        oldestDueInPrefix = "SELECT scheduled_us FROM " + due + " WHERE state = 'SCHEDULED' AND partition_id IN (";
        oldestDueInSuffix = ") AND scheduled_us < ?" + notPaused + " ORDER BY scheduled_us, id LIMIT 1";
        dueAfterCursor = " AND scheduled_us < ? AND scheduled_us >= ? AND (scheduled_us > ? OR id > ?)";
        // rows written before partitions, by an index of them (V13: partial on PostgreSQL, of partition_id elsewhere);
        // a row that has a partition keeps it, so two nodes filling at once write the same value once
        withoutPartition = "SELECT " + INSTANCE_COLUMNS + " FROM " + p
                + "instance WHERE state = ? AND partition_id IS NULL LIMIT ?";
        fillPartition = "UPDATE " + p + "instance SET partition_id = ? WHERE id = ? AND partition_id IS NULL";
        findByKey = "SELECT " + INSTANCE_COLUMNS + " FROM " + p + "instance WHERE task_name = ? AND dedupe_key = ?";
        payload = "SELECT payload FROM " + p + "instance WHERE id = ?";
        reschedule = "UPDATE " + p + "instance SET scheduled_us = ?, node = ?, updated_us = ?"
                + " WHERE id = ? AND state = 'SCHEDULED' AND scheduled_us = ?";
        // the audit row carries the attempt the instance has, read in the same statement instead of a round trip
        auditReschedule = "INSERT INTO " + p + "audit (instance_id, from_state, to_state, node, attempt, at_us, reason)"
                + " SELECT id, 'SCHEDULED', 'SCHEDULED', ?, attempt, ?, ? FROM " + p + "instance WHERE id = ?";
        // a takeover's row after the instance's last replay (a move out of DEAD), counted for many instances at once;
        // the index on (instance_id, id) finds both
        takeoversPrefix = "SELECT a.instance_id, COUNT(*) FROM " + p + "audit a WHERE a.to_state = 'FAILED'"
                + " AND a.reason LIKE '" + io.ax.core.AuditEntry.TAKEOVER + "%' AND NOT EXISTS (SELECT 1 FROM " + p
                + "audit r WHERE r.instance_id = a.instance_id AND r.from_state = 'DEAD' AND r.id > a.id)"
                + " AND a.instance_id IN (";
        auditTrail = "SELECT instance_id, from_state, to_state, node, attempt, at_us, reason FROM " + p
                + "audit WHERE instance_id = ? ORDER BY id";
        updateTaskNextFire = "UPDATE " + p + "task SET next_fire_us = ?, updated_us = ? WHERE name = ?";
        updateTask = "UPDATE " + p + "task SET trigger_desc = ?, updated_us = ? WHERE name = ?";
        insertTask = "INSERT INTO " + p + "task (name, trigger_desc, next_fire_us, paused, updated_us)"
                + " VALUES (?, ?, NULL, FALSE, ?)";
        findTask = "SELECT name, trigger_desc, next_fire_us, paused, updated_us FROM " + p + "task WHERE name = ?";
        findTasks = "SELECT name, trigger_desc, next_fire_us, paused, updated_us FROM " + p + "task ORDER BY name";
        pausedTasks = "SELECT name FROM " + p + "task WHERE paused = TRUE";
        setPaused = "UPDATE " + p + "task SET paused = ?, updated_us = ? WHERE name = ?";
        insertDeadLetter = "INSERT INTO " + p + "dead_letter"
                + " (instance_id, task_name, scheduled_us, params, attempts, last_stack_trace, died_us)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)";
        deleteDeadLetter = "DELETE FROM " + p + "dead_letter WHERE instance_id = ?";
        deadLetters = "SELECT instance_id, task_name, scheduled_us, params, attempts, last_stack_trace, died_us FROM "
                + p + "dead_letter ORDER BY died_us DESC, instance_id LIMIT ? OFFSET ?";
        deadLetterOf = "SELECT instance_id, task_name, scheduled_us, params, attempts, last_stack_trace, died_us FROM "
                + p + "dead_letter WHERE instance_id = ?";
        countDeadLetters = "SELECT COUNT(*) FROM " + p + "dead_letter";
        // Retention. Candidates are read from the (state, updated_us) index, a range per state that stops at the
        // LIMIT; a final instance's updated_us is the time it finished. Two reads, not one with OR: PostgreSQL would
        // answer an OR with a bitmap of every expired row before it applied the LIMIT.
        expiredFinished = "SELECT id FROM " + p + "instance WHERE state IN ('SUCCESS', 'SKIPPED', 'CANCELLED')"
                + " AND updated_us < ? LIMIT ?";
        expiredDead = "SELECT id FROM " + p + "instance WHERE state = 'DEAD' AND updated_us < ? LIMIT ?";
        // the candidates' conditions again, in the deleting statement: a DEAD instance replayed since it was read,
        // or any row that changed, stays
        deleteExpiredPrefix = "DELETE FROM " + p + "instance WHERE ((state IN ('SUCCESS', 'SKIPPED', 'CANCELLED')"
                + " AND updated_us < ?) OR (state = 'DEAD' AND updated_us < ?)) AND id IN (";
        // instance ids are never reused: the history of an id whose instance is gone is gone with it
        deleteOrphanAuditPrefix = "DELETE FROM " + p + "audit WHERE NOT EXISTS (SELECT 1 FROM " + p
                + "instance i WHERE i.id = " + p + "audit.instance_id) AND instance_id IN (";
        deleteOrphanDeadLettersPrefix = "DELETE FROM " + p + "dead_letter WHERE NOT EXISTS (SELECT 1 FROM " + p
                + "instance i WHERE i.id = " + p + "dead_letter.instance_id) AND instance_id IN (";
        // dead letters of instances this store never held (MEMORY ones), by the time they died
        expiredOrphanDeadLetters = "SELECT d.instance_id FROM " + p + "dead_letter d WHERE d.died_us < ?"
                + " AND NOT EXISTS (SELECT 1 FROM " + p + "instance i WHERE i.id = d.instance_id) LIMIT ?";
        deleteExpiredDeadLettersPrefix = "DELETE FROM " + p + "dead_letter WHERE died_us < ? AND NOT EXISTS"
                + " (SELECT 1 FROM " + p + "instance i WHERE i.id = " + p + "dead_letter.instance_id)"
                + " AND instance_id IN (";
        // runtime task definitions: every change conditional on the version it read, audited in the same transaction
        insertDefinition = "INSERT INTO " + p + "task_definition (name, definition, version, node, updated_us)"
                + " VALUES (?, ?, ?, ?, ?)";
        updateDefinition = "UPDATE " + p + "task_definition SET definition = ?, version = ?, node = ?, updated_us = ?"
                + " WHERE name = ? AND version = ?";
        deleteDefinition = "DELETE FROM " + p + "task_definition WHERE name = ? AND version = ?";
        findDefinitions =
                "SELECT name, definition, version, node, updated_us FROM " + p + "task_definition ORDER BY name";
        insertDefinitionAudit = "INSERT INTO " + p
                + "task_definition_audit (name, version, action, node, at_us, definition) VALUES (?, ?, ?, ?, ?, ?)";
        definitionHistory = "SELECT name, version, action, node, at_us, definition FROM " + p
                + "task_definition_audit WHERE name = ? ORDER BY id";
    }

    /** Bound as: the owner (twice; null for any), the states, the limit. */
    String findOwned(int states) {
        return findOwnedPrefix + marks(states) + ") ORDER BY scheduled_us, id LIMIT ?";
    }

    /**
     * Bound as: the owner (twice; null for any), the states, the partitions, the holders left out, the limit. No holder
     * left out: every row of those states and partitions (of that owner).
     */
    String findOwned(int states, int partitions, int leftOut) {
        return findOwnedPrefix + marks(states) + ") AND partition_id IN (" + marks(partitions) + ")"
                + (leftOut == 0 ? "" : " AND (owner IS NULL OR owner NOT IN (" + marks(leftOut) + "))")
                + " ORDER BY scheduled_us, id LIMIT ?";
    }

    /**
     * Due instances of some partitions, from the earliest ({@code after} false; bound as: the partitions, the bound,
     * the limit) or after a cursor (bound as: the partitions, the bound, the cursor's time twice and id, the limit).
     */
    String findScheduled(int partitions, boolean after) {
        return findScheduledInPrefix + marks(partitions) + ")" + (after ? dueAfterCursor : dueFromStart)
                + " ORDER BY scheduled_us, id LIMIT ?";
    }

    /** Bound as: the partitions, the bound. */
    String oldestDue(int partitions) {
        return oldestDueInPrefix + marks(partitions) + oldestDueInSuffix;
    }

    /** The partition of each instance listed that exists (null: none yet), as (id, partition_id) rows. */
    String partitionsOf(int ids) {
        return partitionsOfPrefix + marks(ids) + ")";
    }

    /** Bound as: the states, the limit. */
    String findByStates(int states) {
        return findByStatesPrefix + marks(states) + ") ORDER BY scheduled_us, id LIMIT ?";
    }

    String findAll(int ids) {
        return findAllPrefix + marks(ids) + ")";
    }

    /** Bound as: the task names, then the keys; returns task name and key of the SCHEDULED rows among them. */
    String scheduledWithKey(int tasks, int keys) {
        return scheduledWithKeyPrefix + marks(tasks) + ") AND dedupe_key IN (" + marks(keys)
                + ") AND state = 'SCHEDULED'";
    }

    /** Bound as: the ids. */
    String takeovers(int ids) {
        return takeoversPrefix + marks(ids) + ") GROUP BY a.instance_id";
    }

    /** Bound as: finished before, dead before, the ids. */
    String deleteExpired(int ids) {
        return deleteExpiredPrefix + marks(ids) + ")";
    }

    String deleteOrphanAudit(int ids) {
        return deleteOrphanAuditPrefix + marks(ids) + ")";
    }

    String deleteOrphanDeadLetters(int ids) {
        return deleteOrphanDeadLettersPrefix + marks(ids) + ")";
    }

    /** Bound as: died before, the ids. */
    String deleteExpiredDeadLetters(int ids) {
        return deleteExpiredDeadLettersPrefix + marks(ids) + ")";
    }

    private static String marks(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }
}
