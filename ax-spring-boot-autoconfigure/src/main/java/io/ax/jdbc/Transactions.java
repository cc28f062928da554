package io.ax.jdbc;

import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The store's transactions on one data source, with Spring's {@code PROPAGATION_REQUIRED} meaning: a call made while
 * a transaction already holds a connection of the data source on this thread (Spring's, or an outer call of this
 * class) joins it; otherwise it runs in a transaction of its own on a connection bound to the thread, so that every
 * {@code JdbcTemplate} of the data source inside it uses that connection. Thread-safe.
 *
 * <p>Why not {@code TransactionTemplate}: when a statement fails because the connection broke, the rollback fails
 * too, and {@code TransactionTemplate} then logs the statement's failure at ERROR with its stack trace and throws the
 * rollback's failure in its place. Here the caller gets the statement's failure, the rollback's is added to it as
 * suppressed and logged at DEBUG: AX already reports the failed write once, at WARN, where it decides what follows.
 */
final class Transactions {

    private static final System.Logger LOG = Loggers.get(Transactions.class.getName());

    private final DataSource dataSource;
    private final SQLExceptionTranslator translator;

    Transactions(DataSource dataSource, SQLExceptionTranslator translator) {
        this.dataSource = dataSource;
        this.translator = translator;
    }

    /**
     * Whether the calling thread is inside a transaction on this data source: a connection of it is bound to the
     * thread with auto-commit off. A bound connection in auto-commit mode (Spring binds one, for instance, when a
     * transaction on another data source touches this one) is no transaction, and is not joined.
     */
    boolean active() {
        if (!(TransactionSynchronizationManager.getResource(dataSource) instanceof ConnectionHolder holder)) {
            return false;
        }
        try {
            return !holder.getConnection().getAutoCommit();
        } catch (SQLException e) {
            return true; // the transaction's connection is broken: its next statement says so, not a new transaction
        } catch (IllegalStateException e) {
            return false; // a holder without a connection: nothing to join
        }
    }

    /**
     * Whether the calling thread is inside a Spring-managed transaction on this data source, one that announces its
     * end to {@link #afterCommit}; not inside one of this class's own.
     */
    boolean inCallerTransaction() {
        return TransactionSynchronizationManager.isSynchronizationActive()
                && TransactionSynchronizationManager.isActualTransactionActive()
                && !(TransactionSynchronizationManager.getResource(dataSource) instanceof OwnConnection)
                && active();
    }

    /**
     * Runs {@code onCommit} once the caller's transaction ({@link #inCallerTransaction}) committed, or {@code
     * onRollback} once it ended otherwise; outside one, {@code onCommit} at once.
     */
    void afterCommit(Runnable onCommit, Runnable onRollback) {
        if (inCallerTransaction()) {
            TransactionSynchronizationManager.registerSynchronization(
                    new AfterCommit(dataSource, onCommit, onRollback));
        } else {
            onCommit.run();
        }
    }

    /** Runs {@code work} in the transaction the thread is in on this data source, or in one of its own. */
    void run(Runnable work) {
        execute(() -> {
            work.run();
            return null;
        });
    }

    /**
     * Runs {@code work} in the transaction the thread is in on this data source, or in one of its own that commits
     * when it returns and rolls back when it throws.
     *
     * <p>Joined, a failure of {@code work} marks the outer transaction rollback-only, as Spring's {@code
     * PROPAGATION_REQUIRED} does: part of a change of AX (an instance without its audit row) must never commit.
     *
     * @return what {@code work} returned
     * @throws RuntimeException what {@code work} threw, unchanged; or a translated failure to begin or commit
     */
    <T> T execute(Supplier<T> work) {
        Object bound = TransactionSynchronizationManager.getResource(dataSource);
        if (bound instanceof ConnectionHolder holder && active()) {
            try {
                return work.get();
            } catch (RuntimeException | Error e) {
                holder.setRollbackOnly();
                throw e;
            }
        }
        if (bound != null) {
            // a connection bound outside any transaction: set aside for this one's, as Spring suspends it
            TransactionSynchronizationManager.unbindResource(dataSource);
        }
        try {
            return inOwnTransaction(work);
        } finally {
            if (bound != null) {
                TransactionSynchronizationManager.bindResource(dataSource, bound);
            }
        }
    }

    private <T> T inOwnTransaction(Supplier<T> work) {
        Connection connection = open();
        try {
            TransactionSynchronizationManager.bindResource(dataSource, new OwnConnection(connection));
            T result;
            try {
                result = work.get();
            } catch (RuntimeException | Error e) {
                rollback(connection, e);
                throw e;
            } finally {
                TransactionSynchronizationManager.unbindResource(dataSource);
            }
            try {
                connection.commit();
            } catch (SQLException e) {
                RuntimeException failed = translate("commit", e);
                rollback(connection, failed);
                throw failed;
            }
            return result;
        } finally {
            close(connection);
        }
    }

    private Connection open() {
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection", e);
        }
        try {
            connection.setAutoCommit(false);
            return connection;
        } catch (SQLException e) {
            RuntimeException failed = translate("begin a transaction", e);
            close(connection);
            throw failed;
        }
    }

    /** Rolls back after {@code cause}; a rollback that fails too is {@code cause}'s suppressed, logged at DEBUG. */
    private static void rollback(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException | RuntimeException e) {
            cause.addSuppressed(e);
            LOG.log(Level.DEBUG, "Rollback after {0} failed too: {1}", cause.toString(), e.toString());
        }
    }

    /** Back to auto-commit for the pool, then closed; failures only logged, the outcome is decided already. */
    private static void close(Connection connection) {
        try {
            connection.setAutoCommit(true);
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.DEBUG, "Could not reset auto-commit of a JDBC connection: {0}", e.toString());
        }
        try {
            connection.close();
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.DEBUG, "Could not close a JDBC connection: {0}", e.toString());
        }
    }

    private RuntimeException translate(String task, SQLException e) {
        RuntimeException translated = translator.translate(task, null, e);
        return translated != null ? translated : new UncategorizedSQLException(task, null, e);
    }

    /** The connection of a transaction of this class's own, bound to the thread while it runs. */
    private static final class OwnConnection extends ConnectionHolder {
        OwnConnection(Connection connection) {
            super(connection, true);
        }
    }
}
