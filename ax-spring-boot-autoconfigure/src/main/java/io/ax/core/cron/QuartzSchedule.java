package io.ax.core.cron;

import static io.ax.core.cron.CronExpression.MAX_YEAR;
import static io.ax.core.cron.CronExpression.MIN_YEAR;

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
 * The fire times of a Quartz expression: bit sets of the allowed values of each field, searched on the wall clock of
 * the zone with Quartz's rules for daylight-saving gaps and overlaps (see {@link CronExpression}). Immutable and
 * thread-safe.
 */
final class QuartzSchedule implements Schedule {

    /** A gap is skipped per attempt; real zones never put more than a couple in one search. */
    private static final int MAX_GAP_SKIPS = 16;

    private final long seconds;
    private final long minutes;
    private final long hours;
    private final DayRule days;
    private final long months;
    /** Bit (year - 1970) set for each allowed year. */
    private final long[] years;

    QuartzSchedule(long seconds, long minutes, long hours, DayRule days, long months, long[] years) {
        this.seconds = seconds;
        this.minutes = minutes;
        this.hours = hours;
        this.days = days;
        // Months in which the day fields can never match (April for "31") are dropped up front.
        this.months = months & days.possibleMonths();
        this.years = years.clone();
    }

    @Override
    public Optional<ZonedDateTime> next(ZonedDateTime after) {
        Objects.requireNonNull(after, "after");
        return next(after.toEpochSecond(), after.getZone());
    }

    @Override
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

    /**
     * Quartz accepts an expression that never fires (such as {@code 0 0 0 30 2 ?}, the 30th of February) and simply
     * never runs it; a task defined with one is a mistake, so definitions call this to say so at once.
     */
    @Override
    public void requireCanFire(String expression) {
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
    }
}
