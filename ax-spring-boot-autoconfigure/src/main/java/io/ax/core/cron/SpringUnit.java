package io.ax.core.cron;

import java.time.ZonedDateTime;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.ValueRange;

/**
 * A calendar field of a Spring expression and the three moves Spring's search makes with it on a {@link
 * ZonedDateTime}.
 *
 * <p>The moves are made with the same {@code java.time} operations as Spring's, because around a daylight-saving
 * change they are what decides the fire times: setting a field ({@code with}) reads the new wall time with the current
 * offset when it exists twice and moves it forward by the gap when it does not exist; adding hours, minutes or seconds
 * moves the instant, so it can land in the second pass of a repeated hour (Spring's daily {@code 0 30 2 * * *} fires
 * twice when summer time ends) or past a wall time that exists (in a zone whose clocks move by 30 minutes); adding
 * days, months or years moves the wall time. Stateless.
 */
enum SpringUnit {
    NANO(ChronoField.NANO_OF_SECOND, ChronoUnit.SECONDS),
    SECOND(ChronoField.SECOND_OF_MINUTE, ChronoUnit.MINUTES, ChronoField.NANO_OF_SECOND),
    MINUTE(ChronoField.MINUTE_OF_HOUR, ChronoUnit.HOURS, ChronoField.SECOND_OF_MINUTE, ChronoField.NANO_OF_SECOND),
    HOUR(
            ChronoField.HOUR_OF_DAY,
            ChronoUnit.DAYS,
            ChronoField.MINUTE_OF_HOUR,
            ChronoField.SECOND_OF_MINUTE,
            ChronoField.NANO_OF_SECOND),
    DAY_OF_MONTH(
            ChronoField.DAY_OF_MONTH,
            ChronoUnit.MONTHS,
            ChronoField.HOUR_OF_DAY,
            ChronoField.MINUTE_OF_HOUR,
            ChronoField.SECOND_OF_MINUTE,
            ChronoField.NANO_OF_SECOND),
    MONTH(
            ChronoField.MONTH_OF_YEAR,
            ChronoUnit.YEARS,
            ChronoField.DAY_OF_MONTH,
            ChronoField.HOUR_OF_DAY,
            ChronoField.MINUTE_OF_HOUR,
            ChronoField.SECOND_OF_MINUTE,
            ChronoField.NANO_OF_SECOND),
    DAY_OF_WEEK(
            ChronoField.DAY_OF_WEEK,
            ChronoUnit.WEEKS,
            ChronoField.HOUR_OF_DAY,
            ChronoField.MINUTE_OF_HOUR,
            ChronoField.SECOND_OF_MINUTE,
            ChronoField.NANO_OF_SECOND);

    private final ChronoField field;
    /** The period that holds one cycle of the field: a minute holds 60 seconds, a week seven days. */
    private final ChronoUnit period;
    /** The smaller fields, which go back to their minimum when this one changes. */
    private final ChronoField[] smaller;

    SpringUnit(ChronoField field, ChronoUnit period, ChronoField... smaller) {
        this.field = field;
        this.period = period;
        this.smaller = smaller;
    }

    /** The values the field can take in any period, such as 1-31 for the day of the month. */
    ValueRange range() {
        return field.range();
    }

    int get(ZonedDateTime t) {
        return t.get(field);
    }

    /**
     * Moves {@code t} forward until the field reads {@code goal}, keeping the smaller fields: within the current
     * period when the goal is ahead and exists in it, else by whole units into the next period. A goal that the current
     * period lacks (the 31st in April) leads to the start of the next period instead, from where the caller looks
     * again.
     */
    ZonedDateTime advanceTo(ZonedDateTime t, int goal) {
        int current = get(t);
        ValueRange range = t.range(field);
        if (current < goal) {
            if (range.isValidIntValue(goal)) {
                return t.with(field, goal);
            }
            return t.plus(range.getMaximum() - current + 1, field.getBaseUnit());
        }
        return t.plus(goal + range.getMaximum() - current + 1 - range.getMinimum(), field.getBaseUnit());
    }

    /** The start of the next period: one period later with the field at its minimum; the smaller fields are kept. */
    ZonedDateTime nextPeriod(ZonedDateTime t) {
        ZonedDateTime later = t.plus(1, period);
        return later.with(field, later.range(field).getMinimum());
    }

    /** Sets every smaller field to its minimum, one after the other. */
    ZonedDateTime clearSmaller(ZonedDateTime t) {
        ZonedDateTime cleared = t;
        for (ChronoField f : smaller) {
            cleared = cleared.with(f, cleared.range(f).getMinimum());
        }
        return cleared;
    }
}
