package io.ax.core.engine.threads;

import io.ax.core.clock.AxClock;
import io.ax.core.wheel.AxTimer;
import io.ax.core.wheel.AxTimerFactory;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The engine's own three threads, and the only way onto them: {@code ax-wheel} (the timer the builder's factory
 * makes), which only moves due work on; {@code ax-dispatch-1}, which makes the trigger decisions of fires, retries
 * and timeouts and hands work to the pools; and {@code ax-outcomes-1}, which runs the store work that follows an end
 * the dispatch noticed, so that the dispatch thread never waits for the store. Both queues are bounded: a full one
 * is tried again a moment later through the wheel, never blocking the thread that hands work on.
 */
public final class EngineThreads {

    private static final System.Logger LOG = EngineLog.get();
    private static final int QUEUE_CAPACITY = 65_536;
    private static final Duration HAND_OFF_BACKOFF = Duration.ofMillis(10);
    /**
     * Thrown when a queue is full, and caught at once to retry soon: one instance without a stack trace, as a burst
     * meets it thousands of times a second.
     */
    private static final RejectedExecutionException QUEUE_FULL =
            new RejectedExecutionException("the dispatch queue is full", null) {
                @Override
                public synchronized Throwable fillInStackTrace() {
                    return this;
                }
            };

    private final AxClock clock;
    /** Whether the engine runs: only then is a full queue tried again, and a closed wheel an error. */
    private final BooleanSupplier engineRuns;
    /** What a MEMORY task's entry in the wheel does when it comes due (on the dispatch thread). */
    private final Consumer<MemoryTask> memoryFire;

    private final AxTimer<Object> wheel;
    private final ThreadPoolExecutor dispatch = singleThread("ax-dispatch-");
    private final ThreadPoolExecutor outcomes = singleThread("ax-outcomes-");

    public EngineThreads(
            AxTimerFactory timers,
            Duration tick,
            AxClock clock,
            BooleanSupplier engineRuns,
            Consumer<MemoryTask> memoryFire) {
        this.clock = clock;
        this.engineRuns = engineRuns;
        this.memoryFire = memoryFire;
        this.wheel = Objects.requireNonNull(
                timers.create(tick, clock::nanoTime, this::handOff, "ax-wheel"), "the timer factory made no timer");
    }

    private static ThreadPoolExecutor singleThread(String prefix) {
        return new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE_CAPACITY),
                new NamedThreadFactory(prefix, true),
                (work, pool) -> {
                    throw QUEUE_FULL;
                });
    }

    /** The wheel, for what puts its own entries into it (the MEMORY delayed tasks). */
    public AxTimer<Object> wheel() {
        return wheel;
    }

    public void start() {
        wheel.start();
    }

    /** Runs {@code work} on the dispatch thread after {@code delay}; returns the timer handle, -1 once stopped. */
    public long after(Duration delay, Runnable work) {
        return at(clock.nanoTime() + delay.toNanos(), work);
    }

    /** Runs {@code work} on the dispatch thread at a deadline of the monotonic clock; -1 once stopped. */
    public long at(long deadlineNanos, Runnable work) {
        try {
            return wheel.schedule(deadlineNanos, work);
        } catch (IllegalStateException closed) {
            if (engineRuns.getAsBoolean()) {
                throw closed;
            }
            LOG.log(Level.DEBUG, "AX engine stopped; timer not set");
            return -1;
        }
    }

    public void cancelTimer(long handle) {
        wheel.cancel(handle);
    }

    /** Entries in the wheel. */
    public int timers() {
        return wheel.size();
    }

    /** Whether neither the dispatch nor the outcomes thread has work running or queued. */
    public boolean idle() {
        return idle(dispatch) && idle(outcomes);
    }

    private static boolean idle(ThreadPoolExecutor thread) {
        return thread.getActiveCount() == 0 && thread.getQueue().isEmpty();
    }

    /** Hands work to the dispatch thread. */
    public void onDispatchThread(Runnable work) {
        handOff(work);
    }

    /**
     * Runs store work that follows an attempt (a timeout's outcome, a retry, a dead letter) on the {@code
     * ax-outcomes} thread, never on the dispatch thread; a full queue tries again soon.
     */
    public void afterwards(Runnable work) {
        try {
            outcomes.execute(() -> runSafely(work));
        } catch (RejectedExecutionException e) {
            if (engineRuns.getAsBoolean()) {
                after(HAND_OFF_BACKOFF, () -> afterwards(work));
            }
        }
    }

    /** A start that failed: everything stops at once. */
    public void stopNow() {
        wheel.close();
        dispatch.shutdownNow();
        outcomes.shutdownNow();
    }

    /** Closes the wheel, then lets the dispatch thread and, after it (it hands work on), the outcomes thread end. */
    public void stop(Duration await) {
        wheel.close();
        drain(dispatch, await);
        drain(outcomes, await);
    }

    private static void drain(ThreadPoolExecutor executor, Duration await) {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(await.toMillis(), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** On the wheel thread: hands due work to the dispatch thread, never blocking; a full queue retries soon. */
    private void handOff(Object due) {
        Runnable work = due instanceof MemoryTask m ? () -> memoryFire.accept(m) : (Runnable) due;
        try {
            dispatch.execute(() -> runSafely(work));
        } catch (RejectedExecutionException e) {
            if (engineRuns.getAsBoolean()) {
                after(HAND_OFF_BACKOFF, work);
            }
        }
    }

    private static void runSafely(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "AX dispatch work failed; the engine goes on", e);
        }
    }
}
