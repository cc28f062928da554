package io.ax.core.trigger;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Fires repeatedly at a fixed period: either at a fixed rate (every {@code period} from the first fire) or with a
 * fixed delay (every {@code period} after the previous run ended).
 *
 * @param period the time between fires; positive
 * @param initialDelay the wait before the first fire; zero or positive
 * @param fixedDelay true to count the period from the end of the previous run
 */
public record IntervalTrigger(Duration period, Duration initialDelay, boolean fixedDelay) implements Trigger {

    public IntervalTrigger {
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(initialDelay, "initialDelay");
        if (period.isZero() || period.isNegative()) {
            throw new IllegalArgumentException("period must be positive, was " + period);
        }
        if (initialDelay.isNegative()) {
            throw new IllegalArgumentException("initial delay must not be negative, was " + initialDelay);
        }
    }

    public static IntervalTrigger fixedRate(Duration period, Duration initialDelay) {
        return new IntervalTrigger(period, initialDelay, false);
    }

    public static IntervalTrigger fixedDelay(Duration period, Duration initialDelay) {
        return new IntervalTrigger(period, initialDelay, true);
    }

    @Override
    public Optional<Instant> firstFireTime(Instant now) {
        return Optional.of(now.plus(initialDelay));
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
                + (initialDelay.isZero() ? "" : " after " + initialDelay);
    }
}
