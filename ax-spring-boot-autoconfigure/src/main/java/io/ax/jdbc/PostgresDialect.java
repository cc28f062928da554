package io.ax.jdbc;

import io.ax.core.cluster.WakeUps;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** PostgreSQL: set-based writes of whole groups, {@code LISTEN/NOTIFY} wake-ups. */
final class PostgresDialect implements Dialect {

    /** unique_violation; PostgreSQL reports it by SQLState, its error code is always 0. */
    private static final String UNIQUE_VIOLATION = "23505";

    // clock_timestamp(), not now(): now() is fixed when the transaction starts, however long it then waits for a lock
    @Override
    public String sharedLock() {
        return " FOR SHARE";
    }

    @Override
    public String nowMicros() {
        return "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)";
    }

    @Override
    public String upsert(String table, List<String> columns, List<String> key) {
        return Dialect.insertInto(table, columns) + " ON CONFLICT (" + String.join(", ", key) + ") DO UPDATE SET "
                + Dialect.nonKey(columns, key, c -> c + " = EXCLUDED." + c);
    }

    @Override
    public String insertUnlessHeld(String table, List<String> columns, List<String> values, List<String> key) {
        return "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES (" + String.join(", ", values)
                + ") ON CONFLICT (" + String.join(", ", key) + ") DO NOTHING";
    }

    @Override
    public String dueRange(String prefix) {
        return prefix + "instance";
    }

    /**
     * Arrays into one statement per group ({@code unnest}), duplicates left out by {@code ON CONFLICT DO NOTHING}:
     * a failed statement would abort the whole transaction here, so none is allowed to fail on a duplicate.
     */
    @Override
    public GroupWriter groupWriter(JdbcTemplate jdbc, Sql sql, String prefix) {
        return new PostgresBulk(jdbc, prefix);
    }

    @Override
    public boolean isDuplicateKeyError(SQLException e) {
        return UNIQUE_VIOLATION.equals(e.getSQLState());
    }

    /** {@code LISTEN/NOTIFY}: a new listener each call, one per engine. */
    @Override
    public WakeUps wakeUps(DataSource dataSource, String prefix) {
        return new PostgresWakeUps(dataSource, prefix);
    }

    @Override
    public String migrationLocation() {
        return "classpath:io/ax/jdbc/migration/postgresql";
    }

    /**
     * Flyway's lock as a session lock rather than one held in an open transaction: a migration that builds an index
     * {@code CONCURRENTLY} waits for every older transaction to end, and would wait for Flyway's own forever.
     */
    @Override
    public Map<String, String> flywaySettings() {
        return Map.of("flyway.postgresql.transactional.lock", "false");
    }
}
