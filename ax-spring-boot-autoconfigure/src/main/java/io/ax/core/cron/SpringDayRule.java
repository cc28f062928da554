package io.ax.core.cron;

import java.time.DayOfWeek;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjuster;
import java.time.temporal.TemporalAdjusters;

/**
 * A day of a Spring expression named relative to the month: {@code L}, {@code L-n}, {@code LW} and {@code nW} in
 * day-of-month, {@code dL} and {@code d#k} in day-of-week.
 *
 * <p>Each rule finds its day in the month of the time it is given; when that day is already over it looks in the
 * next month. A day found elsewhere than today starts at midnight; today keeps the time of day. These are Spring's
 * rules, with their edges kept: {@code L-n} can name a day of the month before (the 30th before the end of February
 * is in January); {@code nW} moves a Sunday on the last day of the month to the Monday after it, which is in the next
 * month and so never accepted there; {@code d#k} with k above 5 never finds a day. Immutable and thread-safe.
 */
final class SpringDayRule implements SpringField {

    /** How many months {@code d#k} looks ahead for a month that has a k-th such day; as Spring. */
    private static final int MONTHS_TO_TRY = 12;

    private enum Kind {
        LAST_DAY,
        LAST_WEEKDAY,
        DAYS_BEFORE_LAST,
        NEAREST_WEEKDAY,
        LAST_OF_WEEKDAY,
        NTH_OF_WEEKDAY
    }

    private final Kind kind;
    /** Days before the last ({@code L-n}), the day of the month ({@code nW}) or the occurrence ({@code d#k}). */
    private final int number;
    /** The day of the week of {@code dL} and {@code d#k}; null for the others. */
    private final DayOfWeek dayOfWeek;

    private SpringDayRule(Kind kind, int number, DayOfWeek dayOfWeek) {
        this.kind = kind;
        this.number = number;
        this.dayOfWeek = dayOfWeek;
    }

    /** {@code L}: the last day of the month. */
    static SpringDayRule lastDay() {
        return new SpringDayRule(Kind.LAST_DAY, 0, null);
    }

    /** {@code LW}: the last Monday-to-Friday day of the month. */
    static SpringDayRule lastWeekday() {
        return new SpringDayRule(Kind.LAST_WEEKDAY, 0, null);
    }

    /** {@code L-n}: n days before the last day of the month, n at least 1. */
    static SpringDayRule daysBeforeLast(int days) {
        return new SpringDayRule(Kind.DAYS_BEFORE_LAST, days, null);
    }

    /** {@code nW}: the Monday-to-Friday day nearest to day n of the month. */
    static SpringDayRule nearestWeekday(int dayOfMonth) {
        return new SpringDayRule(Kind.NEAREST_WEEKDAY, dayOfMonth, null);
    }

    /** {@code dL}: the last such day of the week in the month. */
    static SpringDayRule lastOf(DayOfWeek day) {
        return new SpringDayRule(Kind.LAST_OF_WEEKDAY, 0, day);
    }

    /** {@code d#k}: the k-th such day of the week in the month, k at least 1. */
    static SpringDayRule nthOf(DayOfWeek day, int occurrence) {
        return new SpringDayRule(Kind.NTH_OF_WEEKDAY, occurrence, day);
    }

    @Override
    public ZonedDateTime nextOrSame(ZonedDateTime t) {
        ZonedDateTime found = dayIn(t);
        if (found != null && found.isBefore(t)) {
            // This month's day is over: look from the first of the next month, at the same time of day, and start
            // the day found at midnight.
            found = dayIn(SpringUnit.DAY_OF_MONTH.nextPeriod(t));
            if (found != null) {
                found = SpringUnit.DAY_OF_MONTH.clearSmaller(found);
            }
        }
        return found;
    }

    /** The rule's day in the month of {@code t} (or, for some rules, near it); null when there is none. */
    private ZonedDateTime dayIn(ZonedDateTime t) {
        return switch (kind) {
            case LAST_DAY -> todayOrMidnight(t, lastOfMonth(t));
            case LAST_WEEKDAY -> todayOrMidnight(t, lastWeekdayOfMonth(t));
            case DAYS_BEFORE_LAST -> todayOrMidnight(t, lastOfMonth(t).plus(-number, ChronoUnit.DAYS));
            case NEAREST_WEEKDAY -> nearestWeekday(t);
            case LAST_OF_WEEKDAY -> todayOrMidnight(t, t.with(TemporalAdjusters.lastInMonth(dayOfWeek)));
            case NTH_OF_WEEKDAY -> nthOfMonth(t);
        };
    }

    private static ZonedDateTime lastOfMonth(ZonedDateTime t) {
        return t.with(TemporalAdjusters.lastDayOfMonth());
    }

    private static ZonedDateTime lastWeekdayOfMonth(ZonedDateTime t) {
        ZonedDateTime last = lastOfMonth(t);
        return switch (last.getDayOfWeek()) {
            case SATURDAY -> last.minus(1, ChronoUnit.DAYS);
            case SUNDAY -> last.minus(2, ChronoUnit.DAYS);
            default -> last;
        };
    }

    /**
     * The weekday nearest to day {@code number}: Saturday moves back to Friday, Sunday on to Monday, and a Saturday
     * 1st on to Monday the 3rd. A time that already is that weekday is kept as it is.
     */
    private ZonedDateTime nearestWeekday(ZonedDateTime t) {
        int day = t.getDayOfMonth();
        DayOfWeek weekday = t.getDayOfWeek();
        boolean isWeekday = weekday != DayOfWeek.SATURDAY && weekday != DayOfWeek.SUNDAY;
        if ((day == number && isWeekday)
                || (weekday == DayOfWeek.FRIDAY && day == number - 1)
                || (weekday == DayOfWeek.MONDAY && day == number + 1)
                || (weekday == DayOfWeek.MONDAY && number == 1 && day == 3)) {
            return t;
        }
        ZonedDateTime at = t;
        for (int step = 0; step < SpringSchedule.MAX_STEPS; step++) {
            if (day == number) {
                DayOfWeek onDay = at.getDayOfWeek();
                if (onDay == DayOfWeek.SATURDAY) {
                    at = number == 1 ? at.plus(2, ChronoUnit.DAYS) : at.minus(1, ChronoUnit.DAYS);
                } else if (onDay == DayOfWeek.SUNDAY) {
                    at = at.plus(1, ChronoUnit.DAYS);
                }
                return atMidnight(at);
            }
            // Day n may be missing from this month (the 31st of April): advancing then leads into the next month.
            at = SpringUnit.DAY_OF_MONTH.advanceTo(at, number);
            day = at.getDayOfMonth();
        }
        return null;
    }

    /** The k-th such weekday, in this month or, when this month has no k-th, in the first later month that has. */
    private ZonedDateTime nthOfMonth(ZonedDateTime t) {
        TemporalAdjuster nth = TemporalAdjusters.dayOfWeekInMonth(number, dayOfWeek);
        ZonedDateTime from = t;
        for (int month = 0; month < MONTHS_TO_TRY; month++) {
            ZonedDateTime found = from.with(nth);
            if (found.getMonthValue() == from.getMonthValue()) {
                return todayOrMidnight(from, found);
            }
            // Counting ran into the next month: count again in that month.
            from = found;
        }
        return null;
    }

    /** {@code from} itself when {@code found} has its day of the month, else {@code found} at midnight. */
    private static ZonedDateTime todayOrMidnight(ZonedDateTime from, ZonedDateTime found) {
        return found.getDayOfMonth() == from.getDayOfMonth() ? from : atMidnight(found);
    }

    /** Midnight as Spring sets it: the wall time 00:00, moved past a gap when a daylight-saving change removes it. */
    private static ZonedDateTime atMidnight(ZonedDateTime t) {
        return t.with(ChronoField.NANO_OF_DAY, 0);
    }
}
