package io.ax.jdbc;

import io.ax.core.AxException;
import io.ax.core.engine.AttemptTransactions;
import io.ax.core.logging.Loggers;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The attempts of transactional tasks in transactions of the application's transaction manager, on the JDBC store's
 * {@code DataSource}: the handler's {@code JdbcTemplate} (or JPA on the same {@code DataSource}) and the store's
 * success write join the same transaction. Each attempt gets a new one ({@code REQUIRES_NEW}), told to end when it
 * stays idle past the limit: {@code SET LOCAL idle_in_transaction_session_timeout} on PostgreSQL, {@code
 * idle_transaction_timeout} on MariaDB for the transaction's duration (reset to the server's default after it);
 * MySQL and H2 have no such limit, and a frozen node's transaction there lasts until its connection is closed.
 * Thread-safe.
 */
public final class JdbcAttemptTransactions implements AttemptTransactions {

    private enum IdleLimit {
        POSTGRESQL,
        MARIADB,
        NONE
    }

    private final PlatformTransactionManager manager;
    private final DefaultTransactionDefinition definition;
    private final JdbcTemplate jdbc;
    private final IdleLimit idleLimit;

    /**
     * @param manager the application's transaction manager; it must manage transactions of {@code dataSource}
     * @param dataSource the JDBC store's data source
     */
    public JdbcAttemptTransactions(PlatformTransactionManager manager, DataSource dataSource) {
        this.manager = manager;
        this.definition = new DefaultTransactionDefinition(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        definition.setName("ax-attempt");
        this.jdbc = new JdbcTemplate(dataSource);
        this.idleLimit = idleLimitOf(dataSource);
    }

    private static IdleLimit idleLimitOf(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            String product = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
            if (product.contains("postgresql")) {
                return IdleLimit.POSTGRESQL;
            }
            String version = c.getMetaData().getDatabaseProductVersion().toLowerCase(Locale.ROOT);
            return product.contains("mariadb") || version.contains("mariadb") ? IdleLimit.MARIADB : IdleLimit.NONE;
        } catch (SQLException e) {
            throw new AxException("Cannot reach the database to find how it limits idle transactions: " + e, e);
        }
    }

    @Override
    public <T> T inTransaction(Duration idle, Work<T> work) throws Exception {
        // the manager directly, not a TransactionTemplate: when the connection broke, the rollback fails too, and the
        // template would log the work's failure at ERROR and throw the rollback's instead. Here the work's failure is
        // what the caller gets, with the rollback's added to it
        TransactionStatus status = manager.getTransaction(definition);
        T result;
        try {
            limitIdle(idle);
            result = work.run();
        } catch (Exception | Error e) {
            try {
                manager.rollback(status);
            } catch (RuntimeException rollbackFailed) {
                e.addSuppressed(rollbackFailed);
            }
            throw e;
        }
        manager.commit(status);
        return result;
    }

    private void limitIdle(Duration idle) {
        // whole units, at least one: a limit that rounds to 0 would mean none
        switch (idleLimit) {
            case POSTGRESQL ->
                jdbc.execute("SET LOCAL idle_in_transaction_session_timeout = " + Math.max(1, idle.toMillis()));
            case MARIADB -> {
                jdbc.execute("SET SESSION idle_transaction_timeout = " + Math.max(1, ceilSeconds(idle)));
                TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                    @Override
                    public void afterCompletion(int status) {
                        // the setting outlives the transaction on a pooled connection: back to the server's default
                        try {
                            jdbc.execute("SET SESSION idle_transaction_timeout = DEFAULT");
                        } catch (RuntimeException e) {
                            Loggers.get(JdbcAttemptTransactions.class.getName())
                                    .log(
                                            System.Logger.Level.WARNING,
                                            "Could not reset idle_transaction_timeout after an attempt: {0}",
                                            e.toString());
                        }
                    }
                });
            }
            case NONE -> {}
        }
    }

    private static long ceilSeconds(Duration d) {
        return (d.toMillis() + 999) / 1000;
    }
}
