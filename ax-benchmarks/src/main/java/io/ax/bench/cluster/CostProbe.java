package io.ax.bench.cluster;

import io.ax.bench.Options;
import io.ax.bench.Scenario;
import io.ax.bench.cluster.CostCounters.Query;
import io.ax.bench.cluster.CostCounters.TableRows;
import io.ax.bench.db.ServerCpu;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The benchmark JVM's one connection that reads the database's counters ({@code application_name} {@link
 * CostSettings#PROBE_APPLICATION}). Its own statements carry a comment, {@value #MARK}, by which it leaves them out
 * of what it reads from {@code pg_stat_statements}; the transactions they make are subtracted from the database's
 * commits. Every statement runs on its own (autocommit): an explicit transaction would add BEGIN and COMMIT rows that
 * cannot be told from the nodes' own. One caller at a time.
 */
final class CostProbe implements AutoCloseable {

    static final String MARK = "/* ax-cost probe */ ";

    private final Connection connection;
    /** Statements this probe ran in the measured database: each committed one transaction there. */
    private long ownTransactions;

    private CostProbe(Connection connection) {
        this.connection = connection;
    }

    /**
     * Connects, and makes sure {@code pg_stat_statements} can be read: the server must preload it; the extension is
     * created if missing.
     *
     * @throws Scenario.Refused when the server does not preload the module, saying how to enable it
     */
    static CostProbe connect(Options options) throws SQLException {
        Connection c = DriverManager.getConnection(options.jdbcUrl(), options.jdbcUser(), options.jdbcPassword());
        CostProbe probe = new CostProbe(c);
        try {
            String preloaded = probe.text("SELECT current_setting('shared_preload_libraries')");
            if (!preloaded.contains("pg_stat_statements")) {
                throw new Scenario.Refused("the server at "
                        + options.jdbcUrl().replaceFirst("[?&]ApplicationName=[^&]*$", "")
                        + " does not preload pg_stat_statements: start it with -c"
                        + " shared_preload_libraries=pg_stat_statements (or add it to shared_preload_libraries in"
                        + " postgresql.conf) and restart it");
            }
            probe.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            return probe;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * The process id of this server's postmaster on this machine (the parent of this connection's backend), or -1
     * when the server is not a local process.
     */
    long postmaster() throws SQLException {
        return ServerCpu.postmasterOf(Long.parseLong(text("SELECT pg_backend_pid()")));
    }

    /** The server's version, for the notes. */
    String serverVersion() throws SQLException {
        return text("SHOW server_version");
    }

    /** Empties {@code pg_stat_statements} (of every database of the server). */
    void resetStatements() throws SQLException {
        execute("SELECT pg_stat_statements_reset()");
    }

    /** Reads the counters, with the rows written to the tables of {@code schema}. */
    CostCounters read(String schema) throws SQLException {
        Map<Long, Query> statements = new HashMap<>();
        ownTransactions++;
        try (Statement s = connection.createStatement();
                ResultSet r = s.executeQuery(MARK + "SELECT s.queryid, SUM(s.calls), SUM(s.rows), MIN(s.query)"
                        + " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
                        + " WHERE d.datname = current_database() AND s.query NOT LIKE '/* ax-cost probe */%'"
                        + " GROUP BY s.queryid")) {
            while (r.next()) {
                statements.put(r.getLong(1), new Query(r.getLong(2), r.getLong(3), r.getString(4)));
            }
        }
        long lsn = CostCounters.lsn(text("SELECT pg_current_wal_lsn()::text"));
        // the cumulative statistics are cached per transaction: each statement here is one, cleared all the same
        execute("SELECT pg_stat_clear_snapshot()");
        Map<String, TableRows> tables = new HashMap<>();
        ownTransactions++;
        try (PreparedStatement s = connection.prepareStatement(
                MARK + "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del FROM pg_stat_user_tables"
                        + " WHERE schemaname = ?")) {
            s.setString(1, schema);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    tables.put(r.getString(1), new TableRows(r.getLong(2), r.getLong(3), r.getLong(4), r.getLong(5)));
                }
            }
        }
        long commits =
                Long.parseLong(text("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"));
        return new CostCounters(statements, lsn, commits - ownTransactions, tables);
    }

    /** The first column of the first row of a query of the probe's ({@link #MARK} is added), as a number. */
    long count(String sql) throws SQLException {
        return Long.parseLong(text(sql));
    }

    /**
     * Waits, up to {@code timeout}, until no connection with {@code application_name} {@code name} is left: a
     * backend reports its table counters when it exits, and only then are they all in.
     *
     * @return whether none is left
     */
    boolean awaitClosed(String name, Duration timeout) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            ownTransactions++;
            long open;
            try (PreparedStatement s = connection.prepareStatement(
                    MARK + "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = ?")) {
                s.setString(1, name);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    open = r.getLong(1);
                }
            }
            if (open == 0) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                ClusterScenario.log("cost: %d connection(s) of %s still open after %s", open, name, timeout);
                return false;
            }
            Thread.sleep(50);
        }
    }

    private String text(String sql) throws SQLException {
        ownTransactions++;
        try (Statement s = connection.createStatement();
                ResultSet r = s.executeQuery(MARK + sql)) {
            r.next();
            return r.getString(1);
        }
    }

    private void execute(String sql) throws SQLException {
        ownTransactions++;
        try (Statement s = connection.createStatement()) {
            s.execute(MARK + sql);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
