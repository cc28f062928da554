package io.ax.bench.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The PostgreSQL the database scenarios share. Every peer gets its own schema, dropped and created again before
 * each run, so no run sees rows of another.
 */
public final class Postgres {

    private final Options options;

    public Postgres(Options options) {
        this.options = options;
    }

    /** A pool whose connections use {@code schema} as their search path. */
    public HikariDataSource pool(String schema, int maxConnections) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(options.jdbcUrl());
        config.setUsername(options.jdbcUser());
        config.setPassword(options.jdbcPassword());
        config.setSchema(schema);
        config.setMaximumPoolSize(maxConnections);
        config.setMinimumIdle(maxConnections);
        config.setPoolName("bench-" + schema);
        return new HikariDataSource(config);
    }

    /** Drops {@code schema} with everything in it and creates it empty. */
    public void recreateSchema(String schema) throws SQLException {
        try (HikariDataSource admin = pool("public", 1);
                Connection c = admin.getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            s.execute("CREATE SCHEMA " + schema);
        }
    }

    /** Drops {@code schema} and its rows once a run is over. */
    public void dropSchema(String schema) throws SQLException {
        try (HikariDataSource admin = pool("public", 1);
                Connection c = admin.getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    /**
     * Gathers planner statistics for every table of {@code schema}. Tables created empty and filled in one go have
     * none, and a plan cached while they were empty (a sequential scan) would stay in use on pooled connections;
     * a database in service would have statistics, so every run takes them after inserting and before starting.
     */
    public void analyze(String schema) throws SQLException {
        try (HikariDataSource admin = pool("public", 1);
                Connection c = admin.getConnection()) {
            List<String> tables = new ArrayList<>();
            try (PreparedStatement q =
                    c.prepareStatement("select table_name from information_schema.tables where table_schema = ?")) {
                q.setString(1, schema);
                try (ResultSet r = q.executeQuery()) {
                    while (r.next()) {
                        tables.add(r.getString(1));
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                for (String table : tables) {
                    s.execute("ANALYZE " + schema + "." + table);
                }
            }
        }
    }

    /** Runs a script of statements separated by semicolons; lines starting with {@code --} are comments. */
    public static void runScript(HikariDataSource ds, String script) throws SQLException {
        StringBuilder clean = new StringBuilder();
        for (String line : script.split("\n")) {
            if (!line.strip().startsWith("--")) {
                clean.append(line).append('\n');
            }
        }
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            for (String statement : clean.toString().split(";")) {
                if (!statement.isBlank()) {
                    s.execute(statement);
                }
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
    }

    /** A script shipped on the classpath, e.g. Quartz's {@code tables_postgres.sql}. */
    public static String resource(String path) throws IOException {
        try (InputStream in = Postgres.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException("not on the classpath: " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
