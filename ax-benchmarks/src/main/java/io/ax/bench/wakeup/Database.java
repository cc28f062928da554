package io.ax.bench.wakeup;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A database the nodes of a round share, and the wake-up kinds it can be measured with ({@code LISTEN/NOTIFY} is
 * PostgreSQL's alone). Options: {@code --jdbc-url}, {@code --jdbc-user}, {@code --jdbc-password} (PostgreSQL, as the
 * other scenarios), {@code --mariadb-url} ({@code jdbc:mariadb://127.0.0.1:3306/test}), {@code --mariadb-user} (root),
 * {@code --mariadb-password} (empty), {@code --h2-url} ({@code jdbc:h2:mem:axwakeup;DB_CLOSE_DELAY=-1}: one database
 * in this JVM, as the project's H2 tests use it). Each round has tables of its own, under a prefix.
 */
enum Database {
    POSTGRES("postgres", "PostgreSQL", Set.of(Kind.NOTIFY, Kind.REDIS, Kind.POLL)),
    MARIADB("mariadb", "MariaDB", Set.of(Kind.REDIS, Kind.POLL)),
    H2("h2", "H2", Set.of(Kind.REDIS, Kind.POLL));

    /** The name {@code --databases} takes. */
    final String option;
    /** How a column names it. */
    final String label;
    /** The wake-up kinds it has. */
    final Set<Kind> kinds;

    Database(String option, String label, Set<Kind> kinds) {
        this.option = option;
        this.label = label;
        this.kinds = kinds;
    }

    static Database of(String option) {
        String name = option.strip().toLowerCase(Locale.ROOT);
        for (Database d : values()) {
            if (d.option.equals(name)) {
                return d;
            }
        }
        throw new IllegalArgumentException("--databases takes postgres, mariadb and h2, was '" + option + "'");
    }

    /** A pool of {@code size} connections named {@code name}; the caller closes it. */
    HikariDataSource pool(Options o, String name, int size) {
        HikariConfig config = new HikariConfig();
        switch (this) {
            case POSTGRES -> {
                config.setJdbcUrl(o.jdbcUrl());
                config.setUsername(o.jdbcUser());
                config.setPassword(o.jdbcPassword());
            }
            case MARIADB -> {
                config.setJdbcUrl(o.get("mariadb-url", "jdbc:mariadb://127.0.0.1:3306/test"));
                config.setUsername(o.get("mariadb-user", "root"));
                config.setPassword(o.get("mariadb-password", ""));
            }
            case H2 -> {
                config.setJdbcUrl(o.get("h2-url", "jdbc:h2:mem:axwakeup;DB_CLOSE_DELAY=-1"));
                config.setUsername("sa");
                config.setPassword("");
            }
        }
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setConnectionTimeout(5_000); // a round whose database went away fails in seconds, not in 30
        config.setPoolName(name);
        return new HikariDataSource(config);
    }

    /**
     * Drops every table of the current schema whose name starts with {@code prefix} (in any case: H2 keeps Flyway's
     * history table in lower case, AX's tables in upper case). Returns how many.
     */
    static int dropTables(HikariDataSource ds, String prefix) throws SQLException {
        try (Connection c = ds.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            String quote = meta.getIdentifierQuoteString().strip();
            List<String> tables = new ArrayList<>();
            try (ResultSet r = meta.getTables(c.getCatalog(), c.getSchema(), "%", new String[] {"TABLE"})) {
                while (r.next()) {
                    String name = r.getString("TABLE_NAME");
                    if (name.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                        tables.add(name);
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                for (String table : tables) {
                    s.execute("DROP TABLE " + quote + table + quote);
                }
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
            return tables.size();
        }
    }
}
