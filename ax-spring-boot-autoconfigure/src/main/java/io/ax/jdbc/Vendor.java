package io.ax.jdbc;

import io.ax.core.AxException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;

/** The databases AX supports, told apart by the JDBC driver's product name. */
enum Vendor {
    // clock_timestamp(), not now(): now() is fixed when the transaction starts, however long it then waits for a lock
    POSTGRESQL("postgresql", "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)"),
    /**
     * MySQL and MariaDB share one schema and one dialect. The clock is read in UTC: UNIX_TIMESTAMP(NOW(6)) reads it
     * in the session's time zone and maps the hour repeated when daylight saving time ends onto one hour earlier.
     */
    MYSQL("mysql", "TIMESTAMPDIFF(MICROSECOND, TIMESTAMP '1970-01-01 00:00:00', UTC_TIMESTAMP(6))"),
    // Its CURRENT_TIMESTAMP stays
    // the same for a whole transaction. EXTRACT(EPOCH ...) counts from the instant itself, where a DATEDIFF against a
    // zoned epoch came out off by the session's offset from UTC
    H2("h2", "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000000 AS BIGINT)");

    private final String migrationFolder;
    private final String nowMicros;

    Vendor(String migrationFolder, String nowMicros) {
        this.migrationFolder = migrationFolder;
        this.nowMicros = nowMicros;
    }

    /**
     * An SQL expression for the database's clock now, in microseconds since the epoch: lease expiry and heartbeats
     * are measured on it, never on a node's clock.
     */
    String nowMicros() {
        return nowMicros;
    }

    /** Where this vendor's migrations live in the jar. */
    String migrationLocation() {
        return "classpath:io/ax/jdbc/migration/" + migrationFolder;
    }

    static Vendor of(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            String product = connection.getMetaData().getDatabaseProductName();
            return of(product);
        } catch (SQLException e) {
            throw new AxException("Cannot reach the database to find its vendor: " + e.getMessage(), e);
        }
    }

    static Vendor of(String productName) {
        String p = productName.toLowerCase(Locale.ROOT);
        if (p.contains("postgres")) {
            return POSTGRESQL;
        }
        if (p.contains("mysql") || p.contains("mariadb")) {
            return MYSQL;
        }
        if (p.contains("h2")) {
            return H2;
        }
        throw new AxException("AX supports PostgreSQL, MySQL, MariaDB and H2, not '" + productName + "'");
    }
}
