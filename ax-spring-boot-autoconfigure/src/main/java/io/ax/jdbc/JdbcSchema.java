package io.ax.jdbc;

import io.ax.core.AxException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfoService;
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

    /**
     * Brings AX's tables up to {@code targetVersion} ({@code latest} for all): for an upgrade in steps, and for tests
     * that start from an older schema.
     *
     * @return how many migrations were applied
     */
    public static int migrate(DataSource dataSource, String tablePrefix, String targetVersion) {
        return applied(dataSource, tablePrefix, targetVersion).size();
    }

    /**
     * Brings AX's tables up to date.
     *
     * @return the migrations applied now, oldest first, as {@code V2 delayed tasks}; empty when none was due
     * @throws IllegalArgumentException when the prefix is not a safe identifier start
     */
    public static List<String> migrateListing(DataSource dataSource, String tablePrefix) {
        return applied(dataSource, tablePrefix, "latest");
    }

    private static List<String> applied(DataSource dataSource, String tablePrefix, String targetVersion) {
        MigrateResult result = flyway(dataSource, tablePrefix, targetVersion).migrate();
        if (!result.success) {
            throw new AxException("AX schema migration failed: " + result.warnings);
        }
        return result.migrations.stream()
                .map(m -> "V" + m.version + " " + m.description)
                .toList();
    }

    /**
     * The migrations in the AX jar that the database has not applied yet, oldest first, as {@code V8 partitions}: for
     * a team that runs AX's DDL itself ({@code ax.jdbc.initialize-schema=never}), what it has still to run. Empty
     * when the database keeps no history of AX's migrations at all (tables made by hand): nothing to compare with.
     */
    public static List<String> pending(DataSource dataSource, String tablePrefix) {
        MigrationInfoService info = flyway(dataSource, tablePrefix, "latest").info();
        if (info.applied().length == 0) {
            return List.of(); // no history of AX's: tables made by hand, or none; nothing to compare with
        }
        return Arrays.stream(info.pending())
                .map(m -> "V" + m.getVersion() + " " + m.getDescription())
                .toList();
    }

    /** Where the migrations of this database's vendor live in the AX jar, e.g. {@code io/ax/jdbc/migration/h2}. */
    public static String migrationFolder(DataSource dataSource) {
        return Vendor.dialectOf(dataSource).migrationLocation().replaceFirst("^classpath:", "");
    }

    private static Flyway flyway(DataSource dataSource, String tablePrefix, String targetVersion) {
        String prefix = checkPrefix(tablePrefix);
        Dialect dialect = Vendor.dialectOf(dataSource);
        return Flyway.configure(JdbcSchema.class.getClassLoader())
                .configuration(dialect.flywaySettings())
                .dataSource(dataSource)
                .locations(dialect.migrationLocation())
                .table(prefix + "schema_history")
                .placeholders(Map.of("prefix", prefix))
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .target(targetVersion)
                .load();
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
