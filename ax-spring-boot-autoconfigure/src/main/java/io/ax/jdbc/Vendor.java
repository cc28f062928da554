package io.ax.jdbc;

import io.ax.core.AxException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * The databases AX supports, told apart by the JDBC driver's product name, each with its {@link Dialect}. This is
 * the one place that looks at which database it is; everything else asks the dialect.
 */
enum Vendor {
    POSTGRESQL(new PostgresDialect()),
    /** MySQL and MariaDB share one schema and one dialect. */
    MYSQL(new MySqlDialect()),
    H2(new H2Dialect());

    private final Dialect dialect;

    Vendor(Dialect dialect) {
        this.dialect = dialect;
    }

    Dialect dialect() {
        return dialect;
    }

    /** The dialect of the database behind {@code dataSource}; asks it once, over one connection. */
    static Dialect dialectOf(DataSource dataSource) {
        return of(dataSource).dialect();
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
