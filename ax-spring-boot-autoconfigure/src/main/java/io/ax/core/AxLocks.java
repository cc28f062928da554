package io.ax.core;

import java.util.Optional;

/**
 * Cluster-wide locks that renew their lease while held. A lock is held by one caller at a time, named by a token
 * only its holder knows: it is extended and released only with that token, so no one ever releases another's lock.
 * When a renewal fails (the store is unreachable, or the lease ran out while renewals were blocked) the holder is
 * told at once through {@link AxLock#isLost()} and its loss callback, and must stop the work the lock guards.
 * Implementations are thread-safe.
 */
public interface AxLocks {

    /**
     * Takes the lock {@code name} when no one holds it.
     *
     * @param name what the lock guards; not blank
     * @param onLost called once if the lock is lost before it is released, on a thread of the locks' own (or on the
     *     holder's own thread when its {@link AxLock#isLost()} is the first to see the lease run out); must not block
     *     (interrupting the worker thread, setting a flag). Not called after {@link AxLock#close()}
     * @return the lock, renewed until closed; empty when another holder has it, or the store cannot be reached
     */
    Optional<AxLock> tryAcquire(String name, Runnable onLost);

    /** {@link #tryAcquire(String, Runnable)} with no callback: the holder polls {@link AxLock#isLost()}. */
    default Optional<AxLock> tryAcquire(String name) {
        return tryAcquire(name, () -> {});
    }
}
