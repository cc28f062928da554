package io.ax.core.trigger;

import java.time.Instant;
import java.util.Optional;

/**
 * When a task fires. Implementations are immutable values: two tasks whose triggers are equal fire at the same
 * times and share one wheel entry per fire time.
 */
public sealed interface Trigger
        permits CronTrigger, IntervalTrigger, OnDemandTrigger, DependencyTrigger, SpacedTrigger {

    /**
     * The first fire time strictly after {@code now}, or empty when the trigger never fires on its own. A trigger
     * whose first fire is pinned ({@link CronTrigger#firstFireFrom}, {@link IntervalTrigger#fixedRateFrom}) returns
     * that time even when it has passed: the engine then plans it as a late fire of the series.
     */
    Optional<Instant> firstFireTime(Instant now);

    /**
     * The fire time that follows a fire.
     *
     * @param previous the scheduled time of the fire that just happened
     * @param completed when that fire's instance ended; only consulted when {@link #measuresFromCompletion()}
     * @return the next fire time, or empty when there is none
     */
    Optional<Instant> nextFireTime(Instant previous, Instant completed);

    /**
     * The first fire time of this series strictly after {@code now}, for when fires were missed (the process was
     * stopped or stalled): the series goes on from the present instead of firing every missed time.
     *
     * @param previous the scheduled time of the last fire that happened
     * @param now the present
     */
    Optional<Instant> resumeAfter(Instant previous, Instant now);

    /** Whether the next fire time counts from the end of the previous run (fixed delay) instead of its fire time. */
    default boolean measuresFromCompletion() {
        return false;
    }

    /**
     * Whether it has fire times of its own (cron, interval): a series the leader keeps going. False for tasks run
     * on demand and for workflow steps, which fire when their upstream tasks succeed.
     */
    default boolean firesOnItsOwn() {
        return true;
    }

    /** A short human description, e.g. {@code cron '0/5 * * * * ?' in UTC}. */
    String describe();
}
