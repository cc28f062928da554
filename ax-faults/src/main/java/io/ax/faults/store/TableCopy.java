package io.ax.faults.store;

import io.ax.faults.Log;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * Copies the tables the checker reads from the store (AX's, the instrumentation's, the sample's) as the current
 * primary holds them after the run into the witness database, so that the checker, and {@code --check-only} later,
 * judge the run from the witness alone once the pair is gone. A table is created on the witness with the source's
 * columns and types (no keys, no triggers) and filled with {@code COPY}.
 */
public final class TableCopy {

    /** What the checker reads from the store. */
    public static final List<String> STORE_TABLES = List.of(
            "ax_instance",
            "ax_audit",
            "faults_epoch",
            "faults_leader",
            "faults_heartbeat",
            "sample_order",
            "sample_ledger");

    private TableCopy() {}

    /** Copies every table of {@link #STORE_TABLES} that exists on {@code from}. */
    public static void copy(String fromUrl, String toUrl, String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        try (Connection from = DriverManager.getConnection(fromUrl, p);
                Connection to = DriverManager.getConnection(toUrl, p)) {
            for (String table : STORE_TABLES) {
                List<String> columns = columns(from, table);
                if (columns.isEmpty()) {
                    continue;
                }
                try (Statement s = to.createStatement()) {
                    s.execute("DROP TABLE IF EXISTS " + table);
                    s.execute("CREATE TABLE " + table + " (" + String.join(", ", columns) + ")");
                }
                long rows = pipe(from, to, table);
                Log.info("copied %s from the primary to the witness: %d rows", table, rows);
            }
        }
    }

    private static List<String> columns(Connection c, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT a.attname, format_type(a.atttypid, a.atttypmod)"
                + " FROM pg_attribute a WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped"
                + " ORDER BY a.attnum")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + " " + rs.getString(2));
                }
            }
        }
        return out;
    }

    private static long pipe(Connection from, Connection to, String table) throws SQLException {
        CopyManager out = from.unwrap(PGConnection.class).getCopyAPI();
        CopyManager in = to.unwrap(PGConnection.class).getCopyAPI();
        AtomicReference<Exception> failed = new AtomicReference<>();
        long[] rows = new long[1];
        try (PipedInputStream read = new PipedInputStream(1 << 16)) {
            PipedOutputStream write = new PipedOutputStream(read);
            // the copy out of the primary streams into the copy into the witness, without holding a table in memory
            Thread reader = new Thread(
                    () -> {
                        try (write) {
                            rows[0] = out.copyOut("COPY " + table + " TO STDOUT (FORMAT binary)", write);
                        } catch (SQLException | IOException e) {
                            failed.set(e);
                        }
                    },
                    "faults-copy-" + table);
            reader.start();
            in.copyIn("COPY " + table + " FROM STDIN (FORMAT binary)", read);
            reader.join();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + table, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while copying " + table, e);
        }
        if (failed.get() != null) {
            throw new IllegalStateException("cannot read " + table + " from the primary", failed.get());
        }
        return rows[0];
    }
}
