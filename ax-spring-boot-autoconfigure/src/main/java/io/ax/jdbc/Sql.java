package io.ax.jdbc;

/** Every statement of the JDBC store, with the table prefix applied. Parameters are always bound, never inlined. */
final class Sql {

    static final String INSTANCE_COLUMNS = "id, task_name, scheduled_us, state, attempt, node, updated_us";

    final String insertInstance;
    final String instanceExists;
    final String updateState;
    final String insertAudit;
    final String findInstance;
    final String findByTask;
    final String auditTrail;
    final String updateTaskNextFire;
    final String updateTask;
    final String insertTask;
    final String findTask;
    final String findTasks;
    final String setPaused;
    final String insertDeadLetter;
    final String deleteDeadLetter;
    final String deadLetters;
    final String countDeadLetters;
    final String findByStatesPrefix;

    Sql(String p) {
        insertInstance = "INSERT INTO " + p + "instance (" + INSTANCE_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)";
        instanceExists = "SELECT COUNT(*) FROM " + p + "instance WHERE id = ?";
        updateState = "UPDATE " + p + "instance SET state = ?, attempt = ?, node = ?, updated_us = ?"
                + " WHERE id = ? AND state = ?";
        insertAudit = "INSERT INTO " + p + "audit (instance_id, from_state, to_state, node, attempt, at_us, reason)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)";
        findInstance = "SELECT " + INSTANCE_COLUMNS + " FROM " + p + "instance WHERE id = ?";
        findByTask = "SELECT " + INSTANCE_COLUMNS + " FROM " + p + "instance WHERE task_name = ?"
                + " ORDER BY scheduled_us DESC LIMIT ?";
        findByStatesPrefix = "SELECT " + INSTANCE_COLUMNS + " FROM " + p + "instance WHERE state IN (";
        auditTrail = "SELECT instance_id, from_state, to_state, node, attempt, at_us, reason FROM " + p
                + "audit WHERE instance_id = ? ORDER BY id";
        updateTaskNextFire = "UPDATE " + p + "task SET next_fire_us = ?, updated_us = ? WHERE name = ?";
        updateTask = "UPDATE " + p + "task SET trigger_desc = ?, updated_us = ? WHERE name = ?";
        insertTask = "INSERT INTO " + p + "task (name, trigger_desc, next_fire_us, paused, updated_us)"
                + " VALUES (?, ?, NULL, FALSE, ?)";
        findTask = "SELECT name, trigger_desc, next_fire_us, paused, updated_us FROM " + p + "task WHERE name = ?";
        findTasks = "SELECT name, trigger_desc, next_fire_us, paused, updated_us FROM " + p + "task ORDER BY name";
        setPaused = "UPDATE " + p + "task SET paused = ?, updated_us = ? WHERE name = ?";
        insertDeadLetter = "INSERT INTO " + p + "dead_letter"
                + " (instance_id, task_name, scheduled_us, params, attempts, last_stack_trace, died_us)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)";
        deleteDeadLetter = "DELETE FROM " + p + "dead_letter WHERE instance_id = ?";
        deadLetters = "SELECT instance_id, task_name, scheduled_us, params, attempts, last_stack_trace, died_us FROM "
                + p + "dead_letter ORDER BY died_us DESC, instance_id LIMIT ? OFFSET ?";
        countDeadLetters = "SELECT COUNT(*) FROM " + p + "dead_letter";
    }
}
