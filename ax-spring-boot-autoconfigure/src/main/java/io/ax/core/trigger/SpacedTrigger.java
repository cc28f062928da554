package io.ax.core.trigger;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The fires of another trigger, at least {@code minSpacing} apart: a fire that would come sooner after the previous
 * one is passed over, and the series goes on with the first fire of {@code trigger} that keeps the spacing. It is
 * how a ShedLock {@code lockAtLeastFor} is kept by an adopted schedule: a start is passed over while the lock
 * would still be held.
 *
 * <p>Fires keep the phase of {@code trigger}: a fixed rate of 1 s spaced by 2.5 s fires at 0, 3, 6 s; a fixed delay
 * counts its period from the end of the run as before, then in periods from there until the spacing is kept.
 *
 * @param trigger the trigger whose fires are spaced; one that fires on its own (cron or interval)
 * @param minSpacing the least time from one fire to the next; positive
 */
public record SpacedTrigger(Trigger trigger, Duration minSpacing) implements Trigger {

    public SpacedTrigger {
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(minSpacing, "minSpacing");
        if (!trigger.firesOnItsOwn() || trigger instanceof SpacedTrigger) {
            throw new IllegalArgumentException("only a cron or interval trigger can be spaced, not " + trigger);
        }
        if (minSpacing.isZero() || minSpacing.isNegative()) {
            throw new IllegalArgumentException("the spacing must be positive, was " + minSpacing);
        }
    }

    @Override
    public Optional<Instant> firstFireTime(Instant now) {
        return trigger.firstFireTime(now);
    }

    @Override
    public Optional<Instant> nextFireTime(Instant previous, Instant completed) {
        return trigger.nextFireTime(previous, completed).flatMap(next -> spaced(previous, next));
    }

    @Override
    public Optional<Instant> resumeAfter(Instant previous, Instant now) {
        return trigger.resumeAfter(previous, now).flatMap(next -> spaced(previous, next));
    }

    /** {@code next}, or the first fire of the trigger at or after {@code previous + minSpacing} when it is sooner. */
    private Optional<Instant> spaced(Instant previous, Instant next) {
        Instant earliest = previous.plus(minSpacing);
        if (!next.isBefore(earliest)) {
            return Optional.of(next);
        }
        if (trigger instanceof IntervalTrigger interval) {
            // whole periods from next, as the passed-over fires would have followed each other
            long period = interval.period().toNanos();
            long gap = Duration.between(next, earliest).toNanos();
            long periods = (gap + period - 1) / period;
            return Optional.of(next.plusNanos(periods * period));
        }
        return trigger.resumeAfter(previous, earliest.minusNanos(1));
    }

    @Override
    public boolean measuresFromCompletion() {
        return trigger.measuresFromCompletion();
    }

    @Override
    public String describe() {
        return trigger.describe() + ", fires at least " + minSpacing + " apart";
    }
}
