package io.ax.core.engine.scheduling;

import io.ax.core.AxScheduler;
import io.ax.core.InvalidScheduleException;
import java.time.Duration;
import java.time.Instant;

/**
 * Keeps schedule times within {@link AxScheduler#HORIZON} of now, so that every conversion downstream stays inside
 * a {@code long}: microseconds since the epoch in the stores, and above all nanoseconds from now in the wheel, whose
 * deadlines are compared by subtraction and so reach about 292 years at most. A MEMORY execution waits in the wheel
 * for its whole life, so the wheel's reach bounds every durability; one limit for both keeps the rule simple.
 *
 * <p>Every check works on {@link Duration}s between instants, which cannot overflow for any two {@link Instant}s,
 * and compares before adding: {@code now.plus(delay)} only runs on a delay already known to be short enough.
 */
public final class Horizon {

    static final Duration SPAN = AxScheduler.HORIZON;
    private static final long SPAN_NANOS = SPAN.toNanos();

    private Horizon() {}

    /**
     * Refuses a time more than the horizon away from {@code now}, either way.
     *
     * @param what names the argument and the request, for the message: "at for 'close' (request 3)"
     */
    static void check(Instant time, Instant now, String what) {
        if (Duration.between(now, time).compareTo(SPAN) > 0) {
            throw new InvalidScheduleException(what + " is " + time + ", beyond the horizon: " + rule(now));
        }
        if (Duration.between(time, now).compareTo(SPAN) > 0) {
            throw new InvalidScheduleException(
                    what + " is " + time + ", too far in the past even with allowPast(): " + rule(now));
        }
    }

    /** Refuses a delay longer than the horizon, before anyone adds it to a time. */
    static void checkDelay(Duration delay, Instant now, String what) {
        if (delay.compareTo(SPAN) > 0) {
            throw new InvalidScheduleException(what + " is " + delay + ", beyond the horizon: " + rule(now));
        }
    }

    /**
     * The nanoseconds from {@code now} until {@code time}: 0 for a time past, and never more than the horizon's, so
     * that a wheel deadline neither overflows nor wraps. Times beyond the horizon never get here through {@link
     * AxScheduler}; the clamp only keeps this total.
     */
    public static long nanosUntil(Instant now, Instant time) {
        Duration ahead = Duration.between(now, time);
        if (ahead.isNegative()) {
            return 0;
        }
        return ahead.compareTo(SPAN) > 0 ? SPAN_NANOS : ahead.toNanos();
    }

    private static String rule(Instant now) {
        return "schedule times must lie within " + SPAN.toDays() + " days (100 years) of now (" + now
                + "; AxScheduler.HORIZON)";
    }
}
