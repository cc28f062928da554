package io.ax.test.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.jdbc.JdbcSchema;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;

/**
 * The databases the JDBC suites run against. H2 runs in memory everywhere; PostgreSQL and MariaDB are the services
 * of the machine (127.0.0.1, see DEVELOPERS.md; override with {@code AX_TEST_POSTGRES_URL} / {@code
 * AX_TEST_MARIADB_URL}). Where a service cannot be reached its suites are skipped, saying why; with {@code
 * AX_TEST_SERVICES=required} (what CI sets) they fail instead.
 */
public enum TestDatabase {
    H2("jdbc:h2:mem:ax-test;DB_CLOSE_DELAY=-1", "sa", ""),
    POSTGRESQL(env("AX_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test"), "postgres", ""),
    MARIADB(env("AX_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test"), "root", "");

    private static final Map<TestDatabase, HikariDataSource> POOLS = new ConcurrentHashMap<>();

    private final String url;
    private final String user;
    private final String password;

    TestDatabase(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** Whether the suites must run even when the service is down ({@code AX_TEST_SERVICES=required}). */
    public static boolean servicesRequired() {
        return "required".equalsIgnoreCase(System.getenv("AX_TEST_SERVICES"));
    }

    /**
     * A pooled data source, after making sure the database answers. Skips the calling test when it does not,
     * or fails it when services are required.
     */
    public DataSource dataSource() {
        String problem = reachability();
        if (problem != null) {
            String message = this + " at " + url + " is not reachable (" + problem + ")";
            if (servicesRequired()) {
                throw new IllegalStateException(message + " and AX_TEST_SERVICES=required");
            }
            Assumptions.abort(message + "; set AX_TEST_SERVICES=required to make this a failure");
        }
        return POOLS.computeIfAbsent(this, db -> {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(db.url);
            config.setUsername(db.user);
            config.setPassword(db.password);
            config.setMaximumPoolSize(8);
            config.setPoolName("ax-test-" + db.name().toLowerCase());
            return new HikariDataSource(config);
        });
    }

    /** Whether the database answers now. */
    public boolean isReachable() {
        return reachability() == null;
    }

    /**
     * The database's name in its URL ({@code test} by default): for a process that reaches the same database another
     * way, through a fault proxy on another port, say.
     */
    public String databaseName() {
        String path = url.substring(url.lastIndexOf('/') + 1);
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }

    /** The JDBC URL, for tests that start another process on the same database. */
    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** Drops the tables of a prefix, so a suite starts from an empty schema. */
    public void dropTables(String prefix) {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            for (String table : new String[] {
                "dead_letter",
                "audit",
                "instance",
                "task",
                "leader",
                "node",
                "idempotency",
                "task_definition",
                "task_definition_audit",
                "partition",
                "activity",
                "permit",
                "task_data",
                "schema_history"
            }) {
                s.execute("DROP TABLE IF EXISTS " + prefix + table);
            }
            if (this == H2) { // Flyway creates its history table with a quoted, lower-case name on H2
                s.execute("DROP TABLE IF EXISTS \"" + prefix + "schema_history\"");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop the " + prefix + " tables of " + this, e);
        }
    }

    /**
     * Creates AX's tables for a suite, from an empty schema, with AX's own migrations. Where the database cannot be
     * reached (and it is not required) it does nothing: each test then skips itself, with the reason, in {@link
     * #emptyStore}.
     */
    public void migrate(String prefix) {
        if (isReachable() || servicesRequired()) {
            dropTables(prefix);
            JdbcSchema.migrate(dataSource(), prefix);
        }
    }

    /** A store on the tables of a prefix, emptied first; skips the test when the database cannot be reached. */
    public JdbcInstanceStore emptyStore(String prefix) {
        truncate(prefix);
        return new JdbcInstanceStore(dataSource(), prefix);
    }

    /** Empties the tables of a prefix; the leader lease goes back to its seeded row: never taken, epoch 0. */
    public void truncate(String prefix) {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            for (String table : new String[] {
                "dead_letter",
                "audit",
                "instance",
                "task",
                "node",
                "idempotency",
                "task_definition",
                "task_definition_audit",
                "partition",
                "permit",
                "task_data"
            }) {
                s.execute("DELETE FROM " + prefix + table);
            }
            // the lease's one row is updated, never inserted: the migration seeds it and nothing else adds it
            s.execute("UPDATE " + prefix + "leader SET holder = NULL, epoch = 0, expires_us = 0, renewed_us = 0"
                    + " WHERE name = 'leader'");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot empty the " + prefix + " tables of " + this, e);
        }
    }

    private String reachability() {
        if (this == H2) {
            return null;
        }
        DriverManager.setLoginTimeout(3);
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            return c.isValid(3) ? null : "connection not valid";
        } catch (SQLException e) {
            return e.getMessage();
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
