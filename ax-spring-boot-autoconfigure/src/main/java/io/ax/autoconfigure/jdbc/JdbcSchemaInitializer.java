package io.ax.autoconfigure.jdbc;

import io.ax.autoconfigure.AxProperties;
import io.ax.autoconfigure.InvalidAxSettingsException;
import io.ax.jdbc.JdbcSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code ax.jdbc.initialize-schema}: migrates AX's tables always (the default), on H2 only, or never. Never
 * means the team runs AX's DDL itself: then tables that are missing, or older than this AX, stop start-up with one
 * message naming the migrations and where they are; so does a database user that may not create tables.
 */
final class JdbcSchemaInitializer {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSchemaInitializer.class);

    private JdbcSchemaInitializer() {}

    static void initialize(DataSource dataSource, String prefix, AxProperties.InitializeSchema mode) {
        try {
            JdbcSchema.checkPrefix(prefix);
        } catch (IllegalArgumentException e) {
            throw new InvalidAxSettingsException(
                    "ax.jdbc",
                    e.getMessage(),
                    "Set ax.jdbc.table-prefix to a letter followed by up to 29 letters, digits or underscores (the"
                            + " default is ax_).",
                    e);
        }
        boolean migrate = switch (mode) {
            case ALWAYS -> true;
            case NEVER -> false;
            case EMBEDDED -> isEmbedded(dataSource);
        };
        if (migrate) {
            migrate(dataSource, prefix);
        } else {
            checkUpToDate(dataSource, prefix);
        }
    }

    private static void migrate(DataSource dataSource, String prefix) {
        List<String> applied;
        try {
            applied = JdbcSchema.migrateListing(dataSource, prefix);
        } catch (RuntimeException e) {
            SQLException denied = deniedDdl(e);
            if (denied == null) {
                throw e;
            }
            throw new InvalidAxSettingsException(
                    "ax.jdbc",
                    "AX could not create its tables: the database user may not create or change tables ("
                            + words(denied) + ")",
                    "Grant the application's database user the right to create tables in its schema, or run AX's"
                            + " migrations yourself (" + JdbcSchema.migrationFolder(dataSource) + " in the AX jar)"
                            + " and set ax.jdbc.initialize-schema=never.",
                    e);
        }
        if (applied.isEmpty()) {
            LOG.info("AX tables (prefix '{}') are up to date", prefix);
        } else {
            LOG.info("AX tables (prefix '{}') migrated: {}", prefix, String.join(", ", applied));
        }
    }

    private static void checkUpToDate(DataSource dataSource, String prefix) {
        String folder = JdbcSchema.migrationFolder(dataSource);
        if (!JdbcSchema.exists(dataSource, prefix)) {
            throw new InvalidAxSettingsException(
                    "ax.jdbc",
                    "AX's tables (" + prefix + "task, " + prefix + "instance, ...) do not exist in the application's"
                            + " database, and ax.jdbc.initialize-schema=never leaves them to you",
                    "Run AX's migrations (" + folder + " in the AX jar; Flyway scripts in which ${prefix} is the"
                            + " table prefix, '" + prefix + "'), or remove ax.jdbc.initialize-schema to let AX create"
                            + " and upgrade them.",
                    null);
        }
        List<String> pending = JdbcSchema.pending(dataSource, prefix);
        if (!pending.isEmpty()) {
            throw new InvalidAxSettingsException(
                    "ax.jdbc",
                    "AX's tables are older than this AX, and ax.jdbc.initialize-schema=never leaves them to you; not"
                            + " applied yet: " + String.join(", ", pending),
                    "Run those migrations (" + folder + " in the AX jar), or remove ax.jdbc.initialize-schema to let"
                            + " AX upgrade its tables.",
                    null);
        }
    }

    /** The refusal of a statement for want of rights, somewhere among the causes; null when the failure is other. */
    private static SQLException deniedDdl(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException e
                    && ("42501".equals(e.getSQLState()) // PostgreSQL: insufficient_privilege
                            || e.getErrorCode() == 1142 // MySQL/MariaDB: command denied to user for table
                            || e.getErrorCode() == 1044 // MySQL/MariaDB: access denied to user for database
                            || e.getErrorCode() == 90096)) { // H2: not enough rights
                return e;
            }
        }
        return null;
    }

    /** The database's own words, without the connection number MariaDB's driver puts first ({@code (conn=12) }). */
    private static String words(SQLException denied) {
        return denied.getMessage().strip().replaceFirst("^\\(conn=\\d+\\)\\s*", "");
    }

    private static boolean isEmbedded(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return c.getMetaData()
                    .getDatabaseProductName()
                    .toLowerCase(Locale.ROOT)
                    .contains("h2");
        } catch (SQLException e) {
            throw new IllegalStateException("AX cannot reach its database: " + e.getMessage(), e);
        }
    }
}
