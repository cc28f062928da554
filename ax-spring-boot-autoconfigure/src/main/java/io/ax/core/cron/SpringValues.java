package io.ax.core.cron;

import java.time.ZonedDateTime;

/**
 * A field of a Spring expression given as values, ranges and steps ({@code 5}, {@code 1-5}, {@code *}{@code /15}):
 * the set of values it allows, and Spring's way of moving a time to the next allowed one.
 *
 * @param unit the calendar field
 * @param allowed bit v set when value v is allowed (bit 7, not 0, for Sunday in day-of-week)
 */
record SpringValues(SpringUnit unit, long allowed) implements SpringField {

    /** The extra field at the end of Spring's search that moves a time with a fraction of a second to the next second. */
    static final SpringValues WHOLE_SECONDS = new SpringValues(SpringUnit.NANO, 1L);

    /** Where the next allowed value was looked for: the time, moved into a later period if needed, and the value. */
    private record Target(ZonedDateTime time, int value) {}

    @Override
    public ZonedDateTime nextOrSame(ZonedDateTime t) {
        int current = unit.get(t);
        Target target = target(t, current);
        if (target.value() == current) {
            return target.time();
        }
        ZonedDateTime moved = target.time();
        int goal = target.value();
        int steps = 0;
        // Moving to a value can land elsewhere (the 31st of a 30-day month leads into the next month, a wall time in
        // a daylight-saving gap is pushed past it), so look again from where it landed, a bounded number of times.
        while (unit.get(moved) != goal && steps < SpringSchedule.MAX_STEPS) {
            steps++;
            moved = unit.advanceTo(moved, goal);
            Target again = target(moved, unit.get(moved));
            moved = again.time();
            goal = again.value();
        }
        if (steps >= SpringSchedule.MAX_STEPS) {
            return null;
        }
        return unit.clearSmaller(moved);
    }

    /**
     * The first allowed value from {@code value} on in the period of {@code t}; when there is none, the start of the
     * next period and its first allowed value (two periods on, from 0, in the unlikely case that the next one has
     * none either).
     */
    private Target target(ZonedDateTime t, int value) {
        int found = allowedFrom(value);
        if (found >= 0) {
            return new Target(t, found);
        }
        ZonedDateTime next = unit.nextPeriod(t);
        found = allowedFrom(unit.get(next));
        if (found >= 0) {
            return new Target(next, found);
        }
        return new Target(unit.nextPeriod(next), allowedFrom(0));
    }

    /**
     * The smallest allowed value at or above {@code value}, or -1. Values of a second's nanoseconds run past 63, where
     * the shift wraps around as Java's shifts do; Spring's search reads them the same way, and the only allowed
     * nanosecond value is 0, so any fraction of a second still leads to the next whole second.
     */
    private int allowedFrom(int value) {
        long candidates = allowed & (-1L << value);
        return candidates == 0 ? -1 : Long.numberOfTrailingZeros(candidates);
    }
}
