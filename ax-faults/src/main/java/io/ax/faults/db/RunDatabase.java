package io.ax.faults.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.jdbc.JdbcSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A database of the run, reached directly (never through a fault proxy): on one server, the run's own database,
 * created afresh for each run, given AX's tables, the runner's instrumentation and its own records before any node
 * starts, and read by the checker afterwards; on the pair, the store (AX's tables and the instrumentation, through
 * the multi-host URL, created with the pair) and the witness (the runner's and the recorders' tables, on the
 * machine's server) are two. Nothing here touches any other database of the server. Thread-safe.
 */
public final class RunDatabase implements AutoCloseable {

    /** AX's table prefix on the nodes; the instrumentation is written for it. */
    public static final String PREFIX = "ax_";

    private final String host;
    private final int port;
    private final String name;
    private final String user;
    private final String password;
    private final String url;
    private HikariDataSource pool;

    /** The run's database {@code name} on the server at {@code host:port}. */
    public RunDatabase(String host, int port, String name, String user, String password) {
        this(host, port, name, user, password, "jdbc:postgresql://" + host + ":" + port + "/" + name);
    }

    private RunDatabase(String host, int port, String name, String user, String password, String url) {
        this.host = host;
        this.port = port;
        this.name = name;
        this.user = user;
        this.password = password;
        this.url = url;
    }

    /**
     * The store on the pair: {@code url} reaches whichever server is primary; the pair created the database, so
     * {@link #reset} and {@link #drop} are not for it.
     */
    public static RunDatabase onPair(String url, String name, String user) {
        return new RunDatabase(null, -1, name, user, "", url);
    }

    /** Why the server cannot be reached, or null when it answers. */
    public String unreachable() {
        requireServer();
        try (Connection c = admin()) {
            return null;
        } catch (SQLException e) {
            return e.getMessage();
        }
    }

    /** Drops the run's database (closing its sessions) and creates it empty, with AX's tables and the runner's. */
    public void reset() {
        resetWitness();
        installStore();
    }

    /** Drops the database and creates it with the runner's records only: the witness of a run on the pair. */
    public void resetWitness() {
        requireServer();
        close();
        try (Connection c = admin();
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the database " + name + " at " + host + ":" + port, e);
        }
        jdbc().execute(resource("witness.sql"));
    }

    /** Gives the (empty) store AX's tables and the instrumentation on them. */
    public void installStore() {
        JdbcSchema.migrate(pool(), PREFIX);
        jdbc().execute(resource("instrumentation.sql"));
    }

    private void requireServer() {
        if (host == null) {
            throw new IllegalStateException("the store on the pair is made by the pair, not dropped or created here");
        }
    }

    /** Drops the run's database, closing its sessions first. */
    public void drop() {
        requireServer();
        close();
        try (Connection c = admin();
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop the database " + name, e);
        }
    }

    /** A template over a small pool of direct connections to the run's database. */
    public JdbcTemplate jdbc() {
        return new JdbcTemplate(pool());
    }

    /** The database's clock now, in microseconds since the epoch. */
    public long nowMicros() {
        Long now = jdbc().queryForObject(
                        "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)", Long.class);
        return now == null ? 0 : now;
    }

    /** Records the run's settings for the checker, which reads nothing but the database. */
    public void recordSettings(Map<String, String> settings) {
        JdbcTemplate db = jdbc();
        settings.forEach((k, v) -> db.update(
                "INSERT INTO faults_setting (name, value) VALUES (?, ?)"
                        + " ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
                k,
                v));
    }

    /** The settings the run recorded. */
    public Map<String, String> settings() {
        Map<String, String> out = new LinkedHashMap<>();
        jdbc().query("SELECT name, value FROM faults_setting ORDER BY name", rs -> {
            out.put(rs.getString(1), rs.getString(2));
        });
        return out;
    }

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    private synchronized HikariDataSource pool() {
        if (pool == null) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(url());
            config.setUsername(user);
            config.setPassword(password);
            config.setMaximumPoolSize(4);
            config.setPoolName("faults-runner");
            // a query of the runner while the pair fails over fails in seconds, not Hikari's 30
            config.setConnectionTimeout(5_000);
            pool = new HikariDataSource(config);
        }
        return pool;
    }

    private Connection admin() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        p.setProperty("connectTimeout", "5");
        return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres", p);
    }

    private static String resource(String file) {
        try (InputStream in = RunDatabase.class.getResourceAsStream("/io/ax/faults/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        if (pool != null) {
            pool.close();
            pool = null;
        }
    }
}
