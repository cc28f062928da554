package io.ax.core;

/**
 * A held lock of {@link AxLocks}: renewed in the background until {@link #close()}. Thread-safe.
 */
public interface AxLock extends AutoCloseable {

    /** The lock's name. */
    String name();

    /** The holder's token: unique to this acquisition, never reused. */
    String token();

    /**
     * Whether the lock was lost: a renewal failed or did not come in time, so another caller may hold it now. Once
     * true, it stays true.
     */
    boolean isLost();

    /**
     * Stops renewing and releases the lock, only if it is still held with this token; idempotent, never throws (a
     * release that cannot reach the store leaves the lock to expire).
     */
    @Override
    void close();
}
