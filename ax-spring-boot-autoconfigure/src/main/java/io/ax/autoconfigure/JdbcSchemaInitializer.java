package io.ax.autoconfigure;

import io.ax.core.AxException;
import io.ax.jdbc.JdbcSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies {@code ax.jdbc.initialize-schema}: migrates AX's tables on H2 only, always, or never. */
final class JdbcSchemaInitializer {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSchemaInitializer.class);

    private JdbcSchemaInitializer() {}

    static void initialize(DataSource dataSource, String prefix, AxProperties.InitializeSchema mode) {
        JdbcSchema.checkPrefix(prefix);
        boolean migrate = switch (mode) {
            case ALWAYS -> true;
            case NEVER -> false;
            case EMBEDDED -> isEmbedded(dataSource);
        };
        if (migrate) {
            int applied = JdbcSchema.migrate(dataSource, prefix);
            LOG.info("AX schema with prefix '{}' is up to date ({} migration(s) applied)", prefix, applied);
        } else if (!JdbcSchema.exists(dataSource, prefix)) {
            throw new AxException("AX's tables (" + prefix + "task, " + prefix + "instance, ...) do not exist in "
                    + "the application's database. Create them from the migrations in the AX jar "
                    + "(io/ax/jdbc/migration/<vendor>) or set ax.jdbc.initialize-schema=always.");
        }
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
