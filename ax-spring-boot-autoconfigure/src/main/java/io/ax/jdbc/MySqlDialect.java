package io.ax.jdbc;

import io.ax.core.cluster.WakeUps;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** MySQL and MariaDB: one schema and one dialect for both. */
final class MySqlDialect implements Dialect {

    /** ER_DUP_ENTRY. Its SQLState, 23000, is shared by every integrity violation (a null in a NOT NULL column too). */
    private static final int DUPLICATE_ENTRY = 1062;

    /**
     * The clock is read in UTC: UNIX_TIMESTAMP(NOW(6)) reads it in the session's time zone and maps the hour repeated
     * when daylight saving time ends onto one hour earlier.
     */
    @Override
    public String sharedLock() {
        return " LOCK IN SHARE MODE";
    }

    @Override
    public String nowMicros() {
        return "TIMESTAMPDIFF(MICROSECOND, TIMESTAMP '1970-01-01 00:00:00', UTC_TIMESTAMP(6))";
    }

    /** {@code VALUES(column)}: MariaDB knows no other form (MySQL 8.0.20 deprecates it, and still takes it). */
    @Override
    public String upsert(String table, List<String> columns, List<String> key) {
        return Dialect.insertInto(table, columns) + " ON DUPLICATE KEY UPDATE "
                + Dialect.nonKey(columns, key, c -> c + " = VALUES(" + c + ")");
    }

    /**
     * {@code INSERT IGNORE}: a duplicate key leaves the row out with a warning. It also turns other errors into
     * warnings (a value too long is cut), so it is for rows whose values are checked before.
     */
    @Override
    public String insertUnlessHeld(String table, List<String> columns, List<String> values, List<String> key) {
        return "INSERT IGNORE INTO " + table + " (" + String.join(", ", columns) + ") VALUES ("
                + String.join(", ", values) + ")";
    }

    /**
     * The index named: MariaDB scans a row comparison {@code (scheduled_us, id) > (?, ?)} from the start of the
     * state, so the reads spell the cursor out; and when many rows are due it prefers a lookup on the state alone,
     * walking every due row before the cursor and every pending one after the bound. {@code FORCE INDEX} makes it
     * take the range.
     */
    @Override
    public String dueRange(String prefix) {
        return prefix + "instance FORCE INDEX (" + prefix + "instance_due)";
    }

    /** One statement per row in JDBC batches: a failed statement undoes only itself, not the transaction. */
    @Override
    public GroupWriter groupWriter(JdbcTemplate jdbc, Sql sql, String prefix) {
        return new JdbcBatchWriter(jdbc, sql, this);
    }

    @Override
    public boolean isDuplicateKeyError(SQLException e) {
        return e.getErrorCode() == DUPLICATE_ENTRY;
    }

    /** None: the nodes poll. */
    @Override
    public WakeUps wakeUps(DataSource dataSource, String prefix) {
        return WakeUps.none();
    }

    @Override
    public String migrationLocation() {
        return "classpath:io/ax/jdbc/migration/mysql";
    }

    @Override
    public Map<String, String> flywaySettings() {
        return Map.of();
    }
}
