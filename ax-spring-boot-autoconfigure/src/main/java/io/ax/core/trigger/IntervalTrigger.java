package io.ax.core.trigger;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Fires repeatedly at a fixed period: either at a fixed rate (every {@code period} from the first fire) or with a
 * fixed delay (every {@code period} after the previous run ended). A fixed rate may be pinned to a start instant
 * ({@link #fixedRateFrom}): its fires are then {@code start + k * period}, the first at {@code start} even when that
 * has passed, whichever node plans them and whenever.
 *
 * @param period the time between fires; positive
 * @param initialDelay the wait before the first fire; zero or positive; zero when {@code start} is set
 * @param fixedDelay true to count the period from the end of the previous run
 * @param start the first fire time of a fixed rate pinned to it, or null: the first fire is {@code initialDelay} after
 *     the series starts
 */
public record IntervalTrigger(Duration period, Duration initialDelay, boolean fixedDelay, Instant start)
        implements Trigger {

    public IntervalTrigger {
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(initialDelay, "initialDelay");
        if (start != null && (fixedDelay || !initialDelay.isZero())) {
            throw new IllegalArgumentException("a start instant pins a fixed rate without an initial delay only");
        }
        if (period.isZero() || period.isNegative()) {
            throw new IllegalArgumentException("period must be positive, was " + period);
        }
        if (initialDelay.isNegative()) {
            throw new IllegalArgumentException("initial delay must not be negative, was " + initialDelay);
        }
    }

    /**
     * A trigger without a start instant.
     *
     * @param period the time between fires; positive
     * @param initialDelay the wait before the first fire; zero or positive
     * @param fixedDelay true to count the period from the end of the previous run
     */
    public IntervalTrigger(Duration period, Duration initialDelay, boolean fixedDelay) {
        this(period, initialDelay, fixedDelay, null);
    }

    public static IntervalTrigger fixedRate(Duration period, Duration initialDelay) {
        return new IntervalTrigger(period, initialDelay, false);
    }

    /**
     * A fixed rate whose fires are {@code start + k * period}, the first at {@code start}: when that has passed by the
     * time the series is planned, it is a late fire of the series, and the task's misfire policy says what becomes of
     * it (the series goes on in its phase).
     *
     * @param period the time between fires; positive
     * @param start the first fire time
     */
    public static IntervalTrigger fixedRateFrom(Duration period, Instant start) {
        return new IntervalTrigger(period, Duration.ZERO, false, Objects.requireNonNull(start, "start"));
    }

    public static IntervalTrigger fixedDelay(Duration period, Duration initialDelay) {
        return new IntervalTrigger(period, initialDelay, true);
    }

    @Override
    public Optional<Instant> firstFireTime(Instant now) {
        if (start == null) {
            return Optional.of(now.plus(initialDelay));
        }
        return Optional.of(start);
    }

    @Override
    public Optional<Instant> nextFireTime(Instant previous, Instant completed) {
        return Optional.of((fixedDelay ? completed : previous).plus(period));
    }

    @Override
    public Optional<Instant> resumeAfter(Instant previous, Instant now) {
        if (fixedDelay) {
            return Optional.of(now.plus(period));
        }
        // keep the phase of a fixed rate: the first previous + k * period after now
        long periodNanos = period.toNanos();
        long behind = Duration.between(previous, now).toNanos();
        long steps = behind < 0 ? 1 : behind / periodNanos + 1;
        return Optional.of(previous.plus(period.multipliedBy(steps)));
    }

    @Override
    public boolean measuresFromCompletion() {
        return fixedDelay;
    }

    @Override
    public String describe() {
        return (fixedDelay ? "fixed delay " : "fixed rate ")
                + period
                + (initialDelay.isZero() ? "" : " after " + initialDelay)
                + (start == null ? "" : " from " + start);
    }
}
