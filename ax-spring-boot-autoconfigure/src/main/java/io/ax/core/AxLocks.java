package io.ax.core;

import java.util.Optional;

/**
 * Cluster-wide locks that renew their lease while held. A lock is held by one caller at a time, named by a token
 * only its holder knows: it is extended and released only with that token, so no one ever releases another's lock.
 * When a renewal fails (the store is unreachable, or the lease ran out while renewals were blocked) the holder is
 * told at once through {@link AxLock#isLost()} and its loss callback, and must stop the work the lock guards.
 * Implementations are thread-safe.
 *
 * <p>A Spring application has a bean of this type when AX runs with Redis. While Redis does not answer, no lock is
 * given.
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
     * @throws IllegalArgumentException when {@code name} is null or blank
     * @throws NullPointerException when {@code onLost} is null
     */
    Optional<AxLock> tryAcquire(String name, Runnable onLost);

    /**
     * Takes the lock {@code name} when no one holds it, without a loss callback: the holder polls {@link
     * AxLock#isLost()}. See {@link #tryAcquire(String, Runnable)}.
     *
     * @param name what the lock guards; not blank
     * @return the lock, renewed until closed; empty when another holder has it, or the store cannot be reached
     * @throws IllegalArgumentException when {@code name} is null or blank
     */
    default Optional<AxLock> tryAcquire(String name) {
        return tryAcquire(name, () -> {});
    }
}
