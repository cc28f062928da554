package io.ax.jdbc;

import io.ax.core.AxException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;

/** The databases AX supports, told apart by the JDBC driver's product name. */
enum Vendor {
    POSTGRESQL("postgresql"),
    /** MySQL and MariaDB share one schema and one dialect. */
    MYSQL("mysql"),
    H2("h2");

    private final String migrationFolder;

    Vendor(String migrationFolder) {
        this.migrationFolder = migrationFolder;
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
