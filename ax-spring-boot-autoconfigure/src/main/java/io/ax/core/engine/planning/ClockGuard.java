package io.ax.core.engine.planning;

import io.ax.core.AxClockJumpEvent;
import io.ax.core.clock.AxClock;
import io.ax.core.clock.ClockJumpDetector;
import io.ax.core.clock.ClockStatus;
import io.ax.core.engine.insight.Insight;
import io.ax.core.engine.scheduling.Horizon;
import io.ax.core.engine.threads.EngineLog;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Checks the clocks once a second from its own thread ({@code ax-clock}), so that a busy dispatch thread cannot
 * delay it, and whenever a decision reads the wall clock ({@link #check}: a deadline set, a fire dispatched), so that
 * none is made on a clock that jumped since; a jump is told to the listeners and observers. Fires that fall due
 * meanwhile ask it whether to wait ({@link #holdUntil}). A check is two clock readings: cheap enough for every
 * decision.
 */
public final class ClockGuard {

    private static final System.Logger LOG = EngineLog.get();
    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long JOIN_MILLIS = 1_000;

    private final ClockJumpDetector detector;
    private final AxClock clock;
    private final Insight insight;
    /** Tells the application's listeners, off this thread. */
    private final Consumer<AxClockJumpEvent> listeners;

    private final Thread thread;
    private volatile boolean running;

    public ClockGuard(
            ClockJumpDetector detector, AxClock clock, Insight insight, Consumer<AxClockJumpEvent> listeners) {
        this.detector = detector;
        this.clock = clock;
        this.insight = insight;
        this.listeners = listeners;
        this.thread = new Thread(this::loop, "ax-clock");
        this.thread.setDaemon(true);
    }

    /** Starts the watch; the clocks as they are now (the first offset measured) are its baseline. */
    public void start() {
        detector.rebase();
        running = true;
        thread.start();
    }

    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(JOIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Compares the clocks now; on a jump tells the observers and listeners. */
    public void check() {
        detector.check().ifPresent(jump -> {
            AxClockJumpEvent event = new AxClockJumpEvent(jump, clock.instant(), detector.pause());
            insight.clockJumped(event);
            listeners.accept(event);
        });
    }

    /**
     * The wheel deadline of a wall-clock time, measured from now on the monotonic clock. The clocks are compared
     * first: a jump of the wall clock that the clock watch has not seen yet (it looks once a second) would set the
     * deadline off by the jump, and a fire loaded after a forward jump would start early by it.
     */
    public long deadlineOf(Instant time) {
        check();
        // the wall clock first: a stall between the two readings then sets the deadline late by it, never early
        Instant now = clock.instant();
        return clock.nanoTime() + Horizon.nanosUntil(now, time);
    }

    /** See {@link ClockJumpDetector#holdUntil}. */
    OptionalLong holdUntil(Instant fireTime) {
        return detector.holdUntil(fireTime);
    }

    public ClockStatus status() {
        return detector.status();
    }

    private void loop() {
        while (running) {
            LockSupport.parkNanos(this, PERIOD_NANOS);
            if (!running) {
                return;
            }
            if (Thread.interrupted()) {
                LOG.log(Level.WARNING, "The AX clock watch was interrupted; clock jumps are no longer noticed");
                Thread.currentThread().interrupt();
                return;
            }
            try {
                check();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "The AX clock check failed; it goes on: {0}", e.toString());
            }
        }
    }
}
