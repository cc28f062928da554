package io.ax.jdbc;

import io.ax.core.cluster.WakeUps;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** H2, embedded: for one node, samples and tests. */
final class H2Dialect implements Dialect {

    /** DUPLICATE_KEY_1, which H2 reports as both its SQLState and its error code. */
    private static final String DUPLICATE_KEY = "23505";

    /**
     * H2's CURRENT_TIMESTAMP stays the same for a whole transaction. EXTRACT(EPOCH ...) counts from the instant
     * itself, where a DATEDIFF against a zoned epoch came out off by the session's offset from UTC.
     */
    @Override
    public String sharedLock() {
        return " FOR UPDATE";
    }

    @Override
    public String nowMicros() {
        return "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000000 AS BIGINT)";
    }

    @Override
    public String upsert(String table, List<String> columns, List<String> key) {
        return "MERGE INTO " + table + " (" + String.join(", ", columns) + ") KEY (" + String.join(", ", key)
                + ") VALUES (" + Dialect.markers(columns.size()) + ")";
    }

    /**
     * A plain insert: H2 knows no insert that skips a held key outside its compatibility modes, and a statement that
     * fails on one undoes only itself.
     */
    @Override
    public String insertUnlessHeld(String table, List<String> columns, List<String> values, List<String> key) {
        return "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES (" + String.join(", ", values)
                + ")";
    }

    @Override
    public String dueRange(String prefix) {
        return prefix + "instance";
    }

    /** One statement per row in JDBC batches: a failed statement undoes only itself, not the transaction. */
    @Override
    public GroupWriter groupWriter(JdbcTemplate jdbc, Sql sql, String prefix) {
        return new JdbcBatchWriter(jdbc, sql, this);
    }

    @Override
    public boolean isDuplicateKeyError(SQLException e) {
        return DUPLICATE_KEY.equals(e.getSQLState());
    }

    /** None: the nodes poll. */
    @Override
    public WakeUps wakeUps(DataSource dataSource, String prefix) {
        return WakeUps.none();
    }

    @Override
    public String migrationLocation() {
        return "classpath:io/ax/jdbc/migration/h2";
    }

    @Override
    public Map<String, String> flywaySettings() {
        return Map.of();
    }
}
