package io.ax.core.cron;

/**
 * Which days of a given month match the day-of-month or day-of-week field.
 *
 * <p>Exactly one of the two day fields is specified in a Quartz expression (the other is '?'), so a
 * rule works in one of two modes. Immutable and thread-safe.
 */
final class DayRule {

    // Day-of-month mode: bit d set for day d (1-31).
    private final boolean dayOfWeekMode;
    private final long daysOfMonth;
    /** Bit n set for "L-n" (n = 0 is plain "L"). */
    private final long lastDayOffsets;
    /** Bit d set for "dW": the weekday nearest to day d, within the month. */
    private final long nearestWeekdays;
    /** Bit n set for "L-nW" (n = 0 is "LW"). */
    private final long nearestWeekdaysToLast;

    // Day-of-week mode: bit w set for w = 1 (Sunday) to 7 (Saturday).
    private final int daysOfWeek;
    /** For "w#n": n (1-5); 0 when not used. */
    private final int nth;
    /** For "wL": the last such weekday of the month. */
    private final boolean lastOfMonth;

    private DayRule(
            boolean dayOfWeekMode,
            long daysOfMonth,
            long lastDayOffsets,
            long nearestWeekdays,
            long nearestWeekdaysToLast,
            int daysOfWeek,
            int nth,
            boolean lastOfMonth) {
        this.dayOfWeekMode = dayOfWeekMode;
        this.daysOfMonth = daysOfMonth;
        this.lastDayOffsets = lastDayOffsets;
        this.nearestWeekdays = nearestWeekdays;
        this.nearestWeekdaysToLast = nearestWeekdaysToLast;
        this.daysOfWeek = daysOfWeek;
        this.nth = nth;
        this.lastOfMonth = lastOfMonth;
    }

    static DayRule ofDaysOfMonth(long days, long lastDayOffsets, long nearestWeekdays, long nearestWeekdaysToLast) {
        return new DayRule(false, days, lastDayOffsets, nearestWeekdays, nearestWeekdaysToLast, 0, 0, false);
    }

    static DayRule ofDaysOfWeek(int daysOfWeek) {
        return new DayRule(true, 0, 0, 0, 0, daysOfWeek, 0, false);
    }

    static DayRule ofNthDayOfWeek(int dayOfWeek, int nth) {
        return new DayRule(true, 0, 0, 0, 0, 1 << dayOfWeek, nth, false);
    }

    static DayRule ofLastDayOfWeek(int dayOfWeek) {
        return new DayRule(true, 0, 0, 0, 0, 1 << dayOfWeek, 0, true);
    }

    /**
     * Returns the months (bit m for month m) in which this rule can match in some year, so that a
     * search never scans years for an impossible date such as the 30th of February.
     */
    long possibleMonths() {
        boolean onlyPlainDays =
                !dayOfWeekMode && lastDayOffsets == 0 && nearestWeekdays == 0 && nearestWeekdaysToLast == 0;
        long possible = 0;
        for (int month = 1; month <= 12; month++) {
            // 2000 is a leap year, so February has its longest length here.
            long inMonth = (1L << (lengthOfMonth(2000, month) + 1)) - 2;
            if (!onlyPlainDays || (daysOfMonth & inMonth) != 0) {
                possible |= 1L << month;
            }
        }
        return possible;
    }

    /** Returns the matching days of the month as a bit set: bit d set when day d matches. */
    long daysIn(int year, int month) {
        int length = lengthOfMonth(year, month);
        long inMonth = (1L << (length + 1)) - 2;
        int firstDow = dayOfWeek(year, month, 1);
        if (dayOfWeekMode) {
            return weekdayDays(firstDow, length) & inMonth;
        }
        long mask = daysOfMonth & inMonth;
        for (long offsets = lastDayOffsets; offsets != 0; offsets &= offsets - 1) {
            int day = length - Long.numberOfTrailingZeros(offsets);
            if (day >= 1) {
                mask |= 1L << day;
            }
        }
        for (long bases = nearestWeekdays & inMonth; bases != 0; bases &= bases - 1) {
            mask |= 1L << nearestWeekday(Long.numberOfTrailingZeros(bases), firstDow, length);
        }
        for (long offsets = nearestWeekdaysToLast; offsets != 0; offsets &= offsets - 1) {
            int base = length - Long.numberOfTrailingZeros(offsets);
            if (base >= 1) {
                mask |= 1L << nearestWeekday(base, firstDow, length);
            }
        }
        return mask;
    }

    private long weekdayDays(int firstDow, int length) {
        if (nth != 0 || lastOfMonth) {
            int wanted = Integer.numberOfTrailingZeros(daysOfWeek);
            if (lastOfMonth) {
                int lastDow = dowOfDay(firstDow, length);
                return 1L << (length - Math.floorMod(lastDow - wanted, 7));
            }
            int day = 1 + Math.floorMod(wanted - firstDow, 7) + 7 * (nth - 1);
            return day <= length ? 1L << day : 0;
        }
        // Rotate the 7-bit week so that bit k says whether day k+1 of the month matches, then
        // repeat it for five weeks.
        int week = daysOfWeek >>> 1;
        int shift = firstDow - 1;
        long rotated = ((week >>> shift) | (week << (7 - shift))) & 0x7F;
        long month = rotated | rotated << 7 | rotated << 14 | rotated << 21 | rotated << 28;
        return month << 1;
    }

    /** Quartz's nearest weekday: Saturday moves to Friday, Sunday to Monday, never leaving the month. */
    private static int nearestWeekday(int day, int firstDow, int length) {
        int dow = dowOfDay(firstDow, day);
        if (dow == 7) {
            return day == 1 ? 3 : day - 1;
        }
        if (dow == 1) {
            return day == length ? day - 2 : day + 1;
        }
        return day;
    }

    private static int dowOfDay(int firstDow, int day) {
        return (firstDow - 1 + day - 1) % 7 + 1;
    }

    static int lengthOfMonth(int year, int month) {
        if (month == 2) {
            boolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            return leap ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** Day of week, 1 = Sunday to 7 = Saturday, as Quartz numbers them. */
    static int dayOfWeek(int year, int month, int day) {
        // Days since 1970-01-01 (a Thursday), by the civil-from-days method on a March-based year.
        int y = month <= 2 ? year - 1 : year;
        int era = Math.floorDiv(y, 400);
        int yearOfEra = y - era * 400;
        int monthFromMarch = (month + 9) % 12;
        int dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1;
        int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        long epochDay = (long) era * 146097 + dayOfEra - 719468;
        return (int) Math.floorMod(epochDay + 4, 7L) + 1;
    }
}
