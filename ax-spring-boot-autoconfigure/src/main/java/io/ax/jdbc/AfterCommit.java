package io.ax.jdbc;

import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import javax.sql.DataSource;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * What follows a caller's transaction that the store's writes joined, registered with Spring's transaction
 * synchronization: {@code onCommit} once it committed, {@code onRollback} once it rolled back or ended in doubt.
 */
final class AfterCommit implements TransactionSynchronization {

    private static final System.Logger LOG = Loggers.get(AfterCommit.class.getName());

    private final DataSource dataSource;
    private final Runnable onCommit;
    private final Runnable onRollback;

    AfterCommit(DataSource dataSource, Runnable onCommit, Runnable onRollback) {
        this.dataSource = dataSource;
        this.onCommit = onCommit;
        this.onRollback = onRollback;
    }

    /**
     * After the end, not in {@code afterCommit}: one callback for both outcomes, and Spring calls it with its
     * synchronization already cleared. The finished transaction's connection is still bound to the thread, though,
     * auto-commit off, until Spring cleans up after the callbacks: a statement of what follows (a PostgreSQL wake-up
     * through {@code pg_notify}) would run in a transaction nobody commits. So it is set aside meanwhile, and what
     * follows takes connections of its own.
     */
    @Override
    public void afterCompletion(int status) {
        Object finished = TransactionSynchronizationManager.unbindResourceIfPossible(dataSource);
        try {
            (status == STATUS_COMMITTED ? onCommit : onRollback).run();
        } catch (RuntimeException e) {
            // the store holds what was committed; the engine's sweep finds it there, as another process's work
            LOG.log(
                    Level.WARNING,
                    "AX could not follow up the end of a transaction that scheduled work; the store keeps the truth:"
                            + " {0}",
                    e.toString());
        } finally {
            if (finished != null) {
                TransactionSynchronizationManager.bindResource(dataSource, finished);
            }
        }
    }
}
