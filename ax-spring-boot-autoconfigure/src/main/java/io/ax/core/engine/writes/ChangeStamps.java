package io.ax.core.engine.writes;

import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The times this node's state changes carry: whole microseconds, as the stores keep them, and never the same twice.
 * A write whose connection broke may or may not have committed; the writer then asks the store whether the row holds
 * that very change, and the row's time is what tells it from another change of the same instance, to the same state,
 * by the same node (a second claim of a running attempt, say). Thread-safe.
 */
public final class ChangeStamps {

    /**
     * A clock that steps back by more than this starts the stamps again from its reading rather than counting up
     * from the last one for as long as the step: the changes of the repeated span would otherwise all carry one time.
     */
    private static final long STEP_BACK_MICROS = Duration.ofSeconds(1).toNanos() / 1_000;

    private final AxClock clock;
    private final AtomicLong last = new AtomicLong(Long.MIN_VALUE);

    public ChangeStamps(AxClock clock) {
        this.clock = clock;
    }

    /** Now, in whole microseconds, later than every stamp handed out before (but after a large step back). */
    public Instant next() {
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
        long stamp =
                last.accumulateAndGet(now, (before, x) -> x > before || x < before - STEP_BACK_MICROS ? x : before + 1);
        return Instant.EPOCH.plus(stamp, ChronoUnit.MICROS);
    }

    /** Whether two times are the same microsecond: a store keeps no finer time. */
    public static boolean sameMicro(Instant a, Instant b) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, a) == ChronoUnit.MICROS.between(Instant.EPOCH, b);
    }
}
