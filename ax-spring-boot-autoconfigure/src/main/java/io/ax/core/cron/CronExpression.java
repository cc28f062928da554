package io.ax.core.cron;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Quartz cron expression: six or seven whitespace-separated fields (seconds, minutes, hours,
 * day-of-month, month, day-of-week and an optional year from 1970 to 2099), with the meaning that
 * Quartz 2.5 gives them.
 *
 * <p>Supported syntax: {@code *}, {@code ?}, lists with {@code ,}, ranges with {@code -} (a range
 * whose end is below its start wraps around, so {@code 22-2} in hours means 22, 23, 0, 1, 2), steps
 * with {@code /} ({@code a/b}, {@code *}{@code /b}, {@code a-b/c}), month names {@code JAN}-{@code
 * DEC} and day names {@code SUN}-{@code SAT} in any case; day-of-week numbers run from 1 (Sunday)
 * to 7 (Saturday). Day-of-month also accepts {@code L} (last day), {@code L-n} (n days before the
 * last), {@code nW} (weekday nearest day n, never leaving the month), {@code LW} and {@code L-nW};
 * day-of-week also accepts {@code L} alone (Saturday), {@code nL} (last such weekday of the month)
 * and {@code n#k} (k-th such weekday, k from 1 to 5). Exactly one of the two day fields must be
 * {@code ?}.
 *
 * <p>Fire times are computed on the wall clock of the zone, as Quartz does: a wall time that falls
 * into a daylight-saving gap does not exist and is skipped (and, as in Quartz, a gap can also hide
 * the rest of an hour that it truncates); in an overlap the wall time is taken with the later
 * offset, so a schedule fires once per wall time. Deliberate differences from Quartz 2.5.2: {@code
 * nW} still fires on the following Monday when the search starts after day n (Quartz skips that
 * month); no fire time after 2099 is produced; some malformed input that Quartz silently ignores is
 * rejected.
 *
 * <p>The macros of Unix cron stand for a whole expression: {@code @yearly} (and {@code @annually}) is
 * {@code 0 0 0 1 1 ?}, {@code @monthly} {@code 0 0 0 1 * ?}, {@code @weekly} {@code 0 0 0 ? * SUN},
 * {@code @daily} (and {@code @midnight}) {@code 0 0 0 * * ?}, {@code @hourly} {@code 0 0 * * * ?}.
 *
 * <p>Instances are immutable and thread-safe. {@link #equals(Object)} and {@link #hashCode()}
 * compare the expression text.
 */
public final class CronExpression {

    static final int MIN_YEAR = 1970;
    static final int MAX_YEAR = 2099;

    /** A gap is skipped per attempt; real zones never put more than a couple in one search. */
    private static final int MAX_GAP_SKIPS = 16;

    private final String expression;
    private final long seconds;
    private final long minutes;
    private final long hours;
    private final DayRule days;
    private final long months;
    /** Bit (year - 1970) set for each allowed year. */
    private final long[] years;

    CronExpression(String expression, long seconds, long minutes, long hours, DayRule days, long months, long[] years) {
        this.expression = expression;
        this.seconds = seconds;
        this.minutes = minutes;
        this.hours = hours;
        this.days = days;
        // Months in which the day fields can never match (April for "31") are dropped up front.
        this.months = months & days.possibleMonths();
        this.years = years.clone();
    }

    /**
     * Parses a Quartz cron expression.
     *
     * @param expression the expression, such as {@code "0 15 10 ? * MON-FRI"}
     * @return the parsed expression, never {@code null}
     * @throws CronParseException if the expression is {@code null} or not valid; no other exception
     *     is thrown for any input
     */
    public static CronExpression parse(String expression) {
        return CronParser.parse(expression);
    }

    /**
     * Returns the first fire time strictly after {@code after}, in the zone of {@code after}.
     *
     * <p>Fire times have whole seconds. The search ends at the end of 2099. Wall times that a
     * daylight-saving gap removes are skipped, and a wall time that an overlap repeats fires once,
     * with the later offset, as in Quartz.
     *
     * @param after the time to search after, not {@code null}
     * @return the next fire time, or empty if there is none
     * @throws NullPointerException if {@code after} is {@code null}
     */
    public Optional<ZonedDateTime> next(ZonedDateTime after) {
        Objects.requireNonNull(after, "after");
        return next(after.toEpochSecond(), after.getZone());
    }

    /**
     * Returns the first fire time strictly after {@code after}, computed on the wall clock of {@code
     * zone}.
     *
     * @param after the instant to search after, not {@code null}
     * @param zone the zone whose wall clock the expression describes, not {@code null}
     * @return the next fire time, or empty if there is none
     * @throws NullPointerException if an argument is {@code null}
     */
    public Optional<Instant> next(Instant after, ZoneId zone) {
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(zone, "zone");
        return next(after.getEpochSecond(), zone).map(ZonedDateTime::toInstant);
    }

    private Optional<ZonedDateTime> next(long afterEpochSecond, ZoneId zone) {
        if (afterEpochSecond >= Instant.MAX.getEpochSecond() - 86_400) {
            return Optional.empty();
        }
        ZoneRules rules = zone.getRules();
        // Fire times are whole seconds, so the first candidate is the next whole second.
        Instant cursorInstant = Instant.ofEpochSecond(afterEpochSecond + 1);
        ZoneOffset cursorOffset = rules.getOffset(cursorInstant);
        LocalDateTime cursor = LocalDateTime.ofEpochSecond(cursorInstant.getEpochSecond(), 0, cursorOffset);
        for (int attempt = 0; attempt < MAX_GAP_SKIPS; attempt++) {
            LocalDateTime match = nextWallTime(cursor);
            if (match == null) {
                return Optional.empty();
            }
            ZoneOffsetTransition transition = rules.isFixedOffset() ? null : rules.nextTransition(cursorInstant);
            if (transition == null || match.isBefore(windowStart(transition))) {
                // No transition between cursor and match: the cursor's offset holds.
                return Optional.of(ZonedDateTime.ofInstant(match, cursorOffset, zone));
            }
            LocalDateTime inGap = firstVisitInGap(cursor, match, rules);
            if (inGap == null) {
                List<ZoneOffset> offsets = rules.getValidOffsets(match);
                // In an overlap Quartz's calendar takes the later offset.
                ZoneOffset offset = offsets.get(offsets.size() - 1);
                return Optional.of(ZonedDateTime.ofInstant(match, offset, zone));
            }
            // Quartz's calendar normalises a wall time in a gap forward by the gap's length and
            // searches on from there.
            ZoneOffsetTransition gap = rules.getTransition(inGap);
            cursor = inGap.plus(gap.getDuration());
            cursorOffset = gap.getOffsetAfter();
            cursorInstant = cursor.toInstant(cursorOffset);
        }
        return Optional.empty();
    }

    private static LocalDateTime windowStart(ZoneOffsetTransition transition) {
        return transition.isGap() ? transition.getDateTimeBefore() : transition.getDateTimeAfter();
    }

    /**
     * Returns the first wall time that a Quartz-style search from {@code cursor} to {@code match} sets
     * its calendar to that lies in a daylight-saving gap, or null. Quartz advances one field at a
     * time and resets the smaller fields to zero, so besides the match it visits the match truncated
     * to its day, hour and minute, each only if it lies after the cursor.
     */
    private static LocalDateTime firstVisitInGap(LocalDateTime cursor, LocalDateTime match, ZoneRules rules) {
        LocalDateTime[] visits = {
            match.truncatedTo(ChronoUnit.DAYS),
            match.truncatedTo(ChronoUnit.HOURS),
            match.truncatedTo(ChronoUnit.MINUTES),
            match
        };
        for (LocalDateTime visit : visits) {
            if (visit == match || visit.isAfter(cursor)) {
                ZoneOffsetTransition transition = rules.getTransition(visit);
                if (transition != null && transition.isGap()) {
                    return visit;
                }
            }
        }
        return null;
    }

    /** Returns the earliest wall time at or after {@code from} that matches every field, or null. */
    private LocalDateTime nextWallTime(LocalDateTime from) {
        int year = from.getYear();
        int month = from.getMonthValue();
        int day = from.getDayOfMonth();
        int hour = from.getHour();
        int minute = from.getMinute();
        int second = from.getSecond();
        if (months == 0) {
            return null;
        }
        if (year < MIN_YEAR) {
            year = MIN_YEAR;
            month = 1;
            day = 1;
            hour = minute = second = 0;
        }
        // Each step either accepts a field or moves it (or the next larger field) forward and resets
        // the smaller ones; the year only ever grows, and the search stops after 2099.
        while (true) {
            int y = nextYear(year);
            if (y < 0) {
                return null;
            }
            if (y != year) {
                year = y;
                month = 1;
                day = 1;
                hour = minute = second = 0;
            }
            int m = nextBit(months, month);
            if (m < 0) {
                year++;
                month = 1;
                day = 1;
                hour = minute = second = 0;
                continue;
            }
            if (m != month) {
                month = m;
                day = 1;
                hour = minute = second = 0;
            }
            int d = nextBit(days.daysIn(year, month), day);
            if (d < 0) {
                month++;
                day = 1;
                hour = minute = second = 0;
                continue;
            }
            if (d != day) {
                day = d;
                hour = minute = second = 0;
            }
            int h = nextBit(hours, hour);
            if (h < 0) {
                day++;
                hour = minute = second = 0;
                continue;
            }
            if (h != hour) {
                hour = h;
                minute = second = 0;
            }
            int mi = nextBit(minutes, minute);
            if (mi < 0) {
                hour++;
                minute = second = 0;
                continue;
            }
            if (mi != minute) {
                minute = mi;
                second = 0;
            }
            int s = nextBit(seconds, second);
            if (s < 0) {
                minute++;
                second = 0;
                continue;
            }
            return LocalDateTime.of(year, month, day, hour, minute, s);
        }
    }

    /** Returns the smallest set bit at or above {@code from} (which is below 64), or -1. */
    private static int nextBit(long bits, int from) {
        long candidates = bits & (-1L << from);
        return candidates == 0 ? -1 : Long.numberOfTrailingZeros(candidates);
    }

    private int nextYear(int from) {
        int index = from - MIN_YEAR;
        if (index < 0) {
            index = 0;
        }
        for (int word = index >>> 6; word < years.length; word++) {
            long candidates = years[word] & (word == index >>> 6 ? -1L << (index & 63) : -1L);
            if (candidates != 0) {
                int found = (word << 6) + Long.numberOfTrailingZeros(candidates);
                return found <= MAX_YEAR - MIN_YEAR ? MIN_YEAR + found : -1;
            }
        }
        return -1;
    }

    /** The same schedule under another text: a macro such as {@code @daily} keeps its name. */
    CronExpression named(String text) {
        return new CronExpression(text, seconds, minutes, hours, days, months, years);
    }

    /**
     * Checks that the expression fires at least once between 1970 and 2099. Quartz accepts an expression that
     * never fires (such as {@code 0 0 0 30 2 ?}, the 30th of February) and simply never runs it; a task defined
     * with one is a mistake, so definitions call this to say so at once.
     *
     * @return this expression
     * @throws CronParseException naming the reason when it can never fire
     */
    public CronExpression requireCanFire() {
        if (months == 0) {
            throw new CronParseException(
                    expression,
                    CronField.DAY_OF_MONTH.label,
                    -1,
                    "it can never fire: no month of its month field has a day of its day-of-month field (such as"
                            + " February 30)");
        }
        if (next(ZonedDateTime.of(MIN_YEAR - 1, 12, 30, 0, 0, 0, 0, ZoneOffset.UTC))
                .isEmpty()) {
            throw new CronParseException(
                    expression,
                    null,
                    -1,
                    "it can never fire: no time in the years " + MIN_YEAR + "-" + MAX_YEAR + " matches all its"
                            + " fields");
        }
        return this;
    }

    /** Returns the expression exactly as it was given to {@link #parse(String)}. */
    @Override
    public String toString() {
        return expression;
    }

    /** Two expressions are equal when their text is equal. */
    @Override
    public boolean equals(Object other) {
        return other instanceof CronExpression that && expression.equals(that.expression);
    }

    @Override
    public int hashCode() {
        return expression.hashCode();
    }
}
