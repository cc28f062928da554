package io.ax.jdbc;

import io.ax.core.AxException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Creates and upgrades AX's tables with Flyway, from the migrations inside the AX jar, recording them in AX's own
 * history table ({@code <prefix>schema_history}) so that an application's own Flyway set-up is untouched.
 */
public final class JdbcSchema {

    private static final Pattern PREFIX = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,29}");

    private JdbcSchema() {}

    /**
     * Brings AX's tables up to date.
     *
     * @return how many migrations were applied
     * @throws IllegalArgumentException when the prefix is not a safe identifier start
     */
    public static int migrate(DataSource dataSource, String tablePrefix) {
        return migrate(dataSource, tablePrefix, "latest");
    }

    /** Brings AX's tables up to {@code targetVersion} ({@code latest} for all); upgrade tests start from old ones. */
    static int migrate(DataSource dataSource, String tablePrefix, String targetVersion) {
        String prefix = checkPrefix(tablePrefix);
        Dialect dialect = Vendor.dialectOf(dataSource);
        MigrateResult result = Flyway.configure(JdbcSchema.class.getClassLoader())
                .configuration(dialect.flywaySettings())
                .dataSource(dataSource)
                .locations(dialect.migrationLocation())
                .table(prefix + "schema_history")
                .placeholders(Map.of("prefix", prefix))
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .target(targetVersion)
                .load()
                .migrate();
        if (!result.success) {
            throw new AxException("AX schema migration failed: " + result.warnings);
        }
        return result.migrationsExecuted;
    }

    /** Whether AX's tables with this prefix exist (and can be read). */
    public static boolean exists(DataSource dataSource, String tablePrefix) {
        String prefix = checkPrefix(tablePrefix);
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.executeQuery("SELECT COUNT(*) FROM " + prefix + "instance WHERE 1 = 0")
                    .close();
            s.executeQuery("SELECT COUNT(*) FROM " + prefix + "task WHERE 1 = 0")
                    .close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Validates a table prefix: a letter, then letters, digits and underscores, at most 30 characters.
     *
     * @return the prefix
     * @throws IllegalArgumentException naming the prefix when it is unsafe
     */
    public static String checkPrefix(String tablePrefix) {
        if (tablePrefix == null || !PREFIX.matcher(tablePrefix).matches()) {
            throw new IllegalArgumentException("ax.jdbc.table-prefix '" + tablePrefix
                    + "' must be a letter followed by up to 29 letters, digits or underscores");
        }
        return tablePrefix;
    }
}
