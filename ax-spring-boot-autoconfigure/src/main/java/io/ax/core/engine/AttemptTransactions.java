package io.ax.core.engine;

import java.time.Duration;

/**
 * Runs each attempt of a transactional task ({@link io.ax.core.AxTask#transactional()}) inside one transaction of the
 * store's database, the one in which the engine also records the attempt's success. The handler's writes through the
 * same {@code DataSource} and the instance's {@code RUNNING -> SUCCESS} then commit together or not at all: a crash,
 * a timeout, a failure or a takeover before the commit leaves none of the handler's writes behind, and the retry
 * starts clean. The success is the transaction's last statement, conditional on this node still owning the attempt
 * (owner, attempt number, {@code RUNNING}); when another node took the instance over meanwhile, it changes nothing
 * and the whole transaction rolls back.
 *
 * <p>The core knows no transaction manager: the Spring wiring implements this with the application's, on the store's
 * {@code DataSource}. Called on worker threads; implementations must be thread-safe.
 */
public interface AttemptTransactions {

    /** The work of one attempt, done inside the transaction. */
    interface Work<T> {
        T run() throws Exception;
    }

    /**
     * Calls {@code work} in a new transaction (suspending any the thread is in), committed when it returns and rolled
     * back when it throws. The database is told to end the transaction if it stays idle for longer than {@code
     * idleLimit}, where it can (PostgreSQL, MariaDB): a node frozen mid-attempt must not hold the rows its handler
     * wrote for ever, since the node that takes the attempt over would wait on them.
     *
     * @throws Exception what {@code work} threw, unchanged; or the failure to begin or to commit the transaction
     */
    <T> T inTransaction(Duration idleLimit, Work<T> work) throws Exception;
}
