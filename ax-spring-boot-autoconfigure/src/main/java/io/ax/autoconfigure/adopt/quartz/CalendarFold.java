package io.ax.autoconfigure.adopt.quartz;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import org.quartz.Calendar;
import org.quartz.impl.calendar.BaseCalendar;
import org.quartz.impl.calendar.MonthlyCalendar;
import org.quartz.impl.calendar.WeeklyCalendar;

/**
 * Writes a Quartz calendar that excludes whole days of the week ({@link WeeklyCalendar}) or of the month ({@link
 * MonthlyCalendar}) into the cron expression of the trigger it modifies: the expression it returns fires at exactly
 * the times of the original that the calendar includes, as Quartz fires them. Only the plain forms of the day fields
 * can be written so ({@code *}, {@code ?}, lists and ranges of days); every other calendar or form is refused with the
 * reason. Stateless.
 */
final class CalendarFold {

    private static final Map<String, Integer> DAY_NAMES =
            Map.of("SUN", 1, "MON", 2, "TUE", 3, "WED", 4, "THU", 5, "FRI", 6, "SAT", 7);

    private CalendarFold() {}

    /**
     * The cron expression that fires at the times of {@code expression} that {@code calendar} includes.
     *
     * @param expression the trigger's cron expression, valid for Quartz
     * @param zone the trigger's time zone
     * @param calendar the calendar the trigger names
     * @return the expression with the calendar written into its day fields
     * @throws IllegalArgumentException with the reason when the calendar cannot be written into the expression
     */
    static String fold(String expression, TimeZone zone, Calendar calendar) {
        if (calendar.getBaseCalendar() != null) {
            throw new IllegalArgumentException("it has a base calendar, whose exclusions AX cannot add to the cron"
                    + " expression; give the trigger one calendar of its own");
        }
        if (!(calendar instanceof WeeklyCalendar) && !(calendar instanceof MonthlyCalendar)) {
            throw new IllegalArgumentException("it excludes times from the trigger's fires, and AX writes only a"
                    + " WeeklyCalendar or a MonthlyCalendar into a cron expression; express the exclusion in the cron"
                    + " expression, or leave the calendar out");
        }
        TimeZone calendarZone = ((BaseCalendar) calendar).getTimeZone();
        if (calendarZone == null) {
            calendarZone = TimeZone.getDefault(); // what Quartz's calendars read days in when given no zone
        }
        if (!calendarZone.hasSameRules(zone)) {
            throw new IllegalArgumentException("it reads days in time zone " + calendarZone.getID()
                    + ", and the trigger in " + zone.getID() + "; give both the same zone");
        }
        String[] fields = expression.trim().split("\\s+");
        if (fields.length < 6) {
            throw new IllegalArgumentException("'" + expression + "' has no day fields to write it into");
        }
        if (calendar instanceof WeeklyCalendar weekly) {
            weekly(fields, weekly::isDayExcluded);
        } else {
            monthly(fields, ((MonthlyCalendar) calendar)::isDayExcluded);
        }
        return String.join(" ", fields);
    }

    /** Restricts the day-of-week field (index 5) to the days the calendar includes. */
    private static void weekly(String[] fields, IntPredicate excluded) {
        TreeSet<Integer> included = days(1, 7, d -> !excluded.test(d));
        if (included.size() == 7) {
            return;
        }
        if (fields[5].equals("?")) {
            if (!fields[3].equals("*")) {
                throw new IllegalArgumentException("the day-of-month field '" + fields[3] + "' chooses the days, and a"
                        + " cron expression cannot also choose days of the week");
            }
            fields[3] = "?";
            fields[5] = list(included);
            return;
        }
        TreeSet<Integer> days = parse(fields[5], 1, 7, "day-of-week", true);
        days.retainAll(included);
        fields[5] = nonEmpty(days, "day-of-week");
    }

    /** Restricts the day-of-month field (index 3) to the days the calendar includes. */
    private static void monthly(String[] fields, IntPredicate excluded) {
        TreeSet<Integer> included = days(1, 31, d -> !excluded.test(d));
        if (included.size() == 31) {
            return;
        }
        if (fields[3].equals("?")) {
            if (!fields[5].equals("*")) {
                throw new IllegalArgumentException("the day-of-week field '" + fields[5] + "' chooses the days, and a"
                        + " cron expression cannot also choose days of the month");
            }
            fields[3] = list(included);
            fields[5] = "?";
            return;
        }
        TreeSet<Integer> days = parse(fields[3], 1, 31, "day-of-month", false);
        days.retainAll(included);
        fields[3] = nonEmpty(days, "day-of-month");
    }

    /** The days of a plain field: {@code *}, or a list of days and ranges of days. */
    private static TreeSet<Integer> parse(String field, int min, int max, String name, boolean names) {
        if (field.equals("*")) {
            return days(min, max, d -> true);
        }
        TreeSet<Integer> days = new TreeSet<>();
        for (String part : field.split(",")) {
            String[] range = part.split("-", -1);
            if (range.length > 2) {
                throw unsupported(field, name);
            }
            int from = day(range[0], min, max, field, name, names);
            int to = range.length == 2 ? day(range[1], min, max, field, name, names) : from;
            if (to < from) {
                throw unsupported(field, name);
            }
            for (int d = from; d <= to; d++) {
                days.add(d);
            }
        }
        return days;
    }

    private static int day(String text, int min, int max, String field, String name, boolean names) {
        Integer named = names ? DAY_NAMES.get(text.toUpperCase(Locale.ROOT)) : null;
        if (named != null) {
            return named;
        }
        try {
            int d = Integer.parseInt(text);
            if (d >= min && d <= max) {
                return d;
            }
        } catch (NumberFormatException e) {
            // L, W, #, / and the like: not a plain day
        }
        throw unsupported(field, name);
    }

    private static IllegalArgumentException unsupported(String field, String name) {
        return new IllegalArgumentException("its " + name + " field '" + field + "' is no plain list of days (*, a"
                + " list, ranges), which is all AX writes a calendar into");
    }

    private static String nonEmpty(TreeSet<Integer> days, String name) {
        if (days.isEmpty()) {
            throw new IllegalArgumentException("it excludes every " + name + " the trigger fires on: it never fires");
        }
        return list(days);
    }

    private static TreeSet<Integer> days(int from, int to, IntPredicate keep) {
        TreeSet<Integer> days = new TreeSet<>();
        for (int d = from; d <= to; d++) {
            if (keep.test(d)) {
                days.add(d);
            }
        }
        return days;
    }

    private static String list(TreeSet<Integer> days) {
        List<String> parts = new ArrayList<>();
        days.forEach(d -> parts.add(Integer.toString(d)));
        return parts.stream().collect(Collectors.joining(","));
    }
}
