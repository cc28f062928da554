package io.ax.autoconfigure.adopt.scheduled;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;

/**
 * ShedLock as an adopted method sees it: the lock its {@code @SchedulerLock} declares, and a run that holds it.
 * Without ShedLock on the class path no method declares one ({@link #NONE}).
 */
interface SchedulerLocks {

    /** No ShedLock: no method declares a lock. */
    SchedulerLocks NONE = new SchedulerLocks() {
        @Override
        public Optional<Lock> lockOf(Method method, String origin) {
            return Optional.empty();
        }

        @Override
        public void runHolding(Lock lock, Invocation invocation) throws Exception {
            invocation.run();
        }
    };

    /**
     * The lock declared on {@code method}, its placeholders resolved and {@code @EnableSchedulerLock}'s defaults
     * applied; empty when it declares none.
     *
     * @param origin the declaration, for messages
     */
    Optional<Lock> lockOf(Method method, String origin);

    /**
     * Runs {@code invocation} as ShedLock's holder of {@code lock}: inside, ShedLock's {@code LockAssert} finds it
     * locked, its method interceptor runs the method without asking the lock provider again, and extending it
     * succeeds. AX already guarantees the exclusion the lock stood for.
     */
    void runHolding(Lock lock, Invocation invocation) throws Exception;

    /** A call that may throw. */
    interface Invocation {
        void run() throws Exception;
    }

    /**
     * A {@code @SchedulerLock}.
     *
     * @param name the lock's name
     * @param atMostFor its {@code lockAtMostFor}: zero when neither the method nor the defaults set it
     * @param atLeastFor its {@code lockAtLeastFor}: zero when unset
     */
    record Lock(String name, Duration atMostFor, Duration atLeastFor) {}
}
