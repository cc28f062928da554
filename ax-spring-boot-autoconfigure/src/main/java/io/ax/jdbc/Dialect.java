package io.ax.jdbc;

import io.ax.core.cluster.WakeUps;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Everything that differs between the databases AX runs on: the SQL text that is not the same everywhere, how groups
 * of rows are written, how the database says a unique key already holds a row, where the migrations live and how
 * wake-ups travel. One short class per vendor; {@link Vendor} picks it from the JDBC driver. Outside the dialects
 * the package writes SQL that every vendor reads alike. Implementations are stateless and thread-safe.
 */
interface Dialect {

    /**
     * An SQL expression for the database's clock now, in microseconds since the epoch, read when the statement runs:
     * lease expiry and heartbeats are measured on it, never on a node's clock.
     */
    String nowMicros();

    /**
     * What ends a sub-select that must lock the rows it reads until the statement's transaction ends, shared with
     * other such reads and exclusive of any write: a write fenced by a partition's epoch reads the partition's row so,
     * and the move of that partition, an update of the row, waits for every fenced write in flight and makes every
     * later one read the new epoch (a plain read there would see the epoch of the statement's snapshot).
     */
    String sharedLock();

    /**
     * The instance table as the due-time reads name it in their {@code FROM}: with whatever this database needs to
     * read the {@code (state, scheduled_us, id, partition_id)} index as one range, in its order, and stop at the
     * {@code LIMIT} (an owner's reads check their partitions in the index entries).
     */
    String dueRange(String prefix);

    /**
     * An insert of {@code columns} into {@code table} that replaces the values of the row holding the same {@code key}
     * (the table's primary key, some of the columns) where it would fail on it; bound as: the columns, in order.
     */
    String upsert(String table, List<String> columns, List<String> key);

    /**
     * An insert of one row into {@code table}, {@code columns} given {@code values} (SQL expressions, {@code ?} among
     * them), that adds nothing where a row holds the same {@code key} (the table's primary key) instead of failing,
     * where this database can say so: a failed statement aborts a PostgreSQL transaction. Where it cannot, a plain
     * insert, whose failure on the key undoes only itself: the caller takes {@link #isDuplicateKey} as nothing added
     * too.
     */
    String insertUnlessHeld(String table, List<String> columns, List<String> values, List<String> key);

    /** The columns of {@code columns} that are not in {@code key}, each as {@code form} makes it, joined by commas. */
    static String nonKey(List<String> columns, List<String> key, java.util.function.UnaryOperator<String> form) {
        return columns.stream()
                .filter(c -> !key.contains(c))
                .map(form)
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /** {@code INSERT INTO table (columns) VALUES (?, ...)}, one marker per column. */
    static String insertInto(String table, List<String> columns) {
        return "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES (" + markers(columns.size())
                + ")";
    }

    /** {@code count} markers, joined by commas. */
    static String markers(int count) {
        return String.join(", ", java.util.Collections.nCopies(count, "?"));
    }

    /** How this database takes groups of new instances, state changes and audit rows in few round trips. */
    GroupWriter groupWriter(JdbcTemplate jdbc, Sql sql, String prefix);

    /** Whether this one exception (not its causes) is the database refusing a row that a unique key already holds. */
    boolean isDuplicateKeyError(SQLException e);

    /**
     * Whether {@code failure}, or an exception it wraps (a cause, or the next exception of a batch), is the database
     * refusing a row that a unique key already holds.
     */
    default boolean isDuplicateKey(Throwable failure) {
        // bounded: a chain of causes is short, and a cycle in it must not spin
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause(), depth++) {
            if (t instanceof SQLException sql) {
                for (SQLException s = sql; s != null && depth < 32; s = s.getNextException(), depth++) {
                    if (isDuplicateKeyError(s)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Wake-ups through the database between nodes on the tables of {@code prefix}, or none: the nodes poll. */
    WakeUps wakeUps(DataSource dataSource, String prefix);

    /** Where this database's migrations live in the jar. */
    String migrationLocation();

    /** Flyway settings this database needs beyond the usual ones. */
    Map<String, String> flywaySettings();
}
