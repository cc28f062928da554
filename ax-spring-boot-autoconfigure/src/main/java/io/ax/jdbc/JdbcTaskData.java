package io.ax.jdbc;

import io.ax.core.AxException;
import io.ax.core.store.TaskDataStore;
import java.util.List;
import java.util.Optional;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Task data in the database ({@code <prefix>task_data}): the first write of a key is an insert that the primary key
 * lets one writer win; each later one an update conditional on the version its writer read. Thread-safe.
 */
final class JdbcTaskData implements TaskDataStore {

    private static final List<String> COLUMNS =
            List.of("data_key", "version", "data_value", "instance_id", "fencing_token", "updated_us");

    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final String select;
    private final String insert;
    private final String update;

    JdbcTaskData(JdbcTemplate jdbc, String prefix, Dialect dialect) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        String table = prefix + "task_data";
        select = "SELECT " + String.join(", ", COLUMNS) + " FROM " + table + " WHERE data_key = ?";
        insert = dialect.insertUnlessHeld(table, COLUMNS, List.of("?", "1", "?", "?", "?", "?"), List.of("data_key"));
        update = "UPDATE " + table + " SET version = version + 1, data_value = ?, instance_id = ?, fencing_token = ?,"
                + " updated_us = ? WHERE data_key = ? AND version = ?";
    }

    @Override
    public Optional<TaskData> read(String key) {
        TaskDataStore.checkKey(key);
        try {
            return jdbc
                    .query(
                            select,
                            (rs, n) -> new TaskData(
                                    rs.getString(1),
                                    rs.getLong(2),
                                    rs.getBytes(3),
                                    new Writer(rs.getString(4), rs.getLong(5), Micros.instant(rs.getLong(6)))),
                            key)
                    .stream()
                    .findFirst();
        } catch (DataAccessException e) {
            throw new AxException("Cannot read the task data '" + key + "' from the database: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean write(String key, long expectedVersion, byte[] value, Writer writer) {
        TaskDataStore.checkWrite(key, expectedVersion, value, writer);
        long at = Micros.of(writer.at());
        try {
            if (expectedVersion == 0) {
                try {
                    return jdbc.update(insert, key, value, writer.instanceId(), writer.fencingToken(), at) == 1;
                } catch (DataAccessException e) {
                    if (dialect.isDuplicateKey(e)) {
                        return false; // another writer's first value came first
                    }
                    throw e;
                }
            }
            return jdbc.update(update, value, writer.instanceId(), writer.fencingToken(), at, key, expectedVersion)
                    == 1;
        } catch (DataAccessException e) {
            throw new AxException("Cannot write the task data '" + key + "' to the database: " + e.getMessage(), e);
        }
    }
}
