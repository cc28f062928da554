package io.ax.core;

/**
 * A held lock of {@link AxLocks}: renewed in the background until {@link #close()}. Thread-safe.
 */
public interface AxLock extends AutoCloseable {

    /** {@return the lock's name, as given to {@link AxLocks#tryAcquire(String, Runnable)}} */
    String name();

    /** {@return the holder's token: unique to this acquisition, never reused} */
    String token();

    /**
     * Tells whether the lock was lost: a renewal failed or did not come in time, so another caller may hold it now.
     * Once true, it stays true. Reading it also checks the lease: a holder that asks after the lease ran out learns of
     * the loss at once.
     *
     * @return true once the lock is lost
     */
    boolean isLost();

    /**
     * Stops renewing and releases the lock, only if it is still held with this token; idempotent, never throws (a
     * release that cannot reach the store leaves the lock to expire).
     */
    @Override
    void close();
}
