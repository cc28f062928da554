package io.ax.autoconfigure.endpoint;

import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.DependencyTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.OnDemandTrigger;
import io.ax.core.trigger.SpacedTrigger;
import io.ax.core.trigger.Trigger;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A trigger as an operator reads it on the dashboard: "every 5 seconds", "at 02:00 every day, Europe/Berlin",
 * "every 1 minute after the previous run ends". Cron expressions of the common shapes are put in words; any other
 * keeps its text ("cron '0 15 10 ? * 6L' in UTC", "Spring cron '0 0 9 * * 1' in UTC"), which is exact. The shapes
 * read here mean the same in Quartz's and in Spring's syntax (they take day names, not day numbers, which differ), so
 * a Spring expression is worded as well.
 */
final class TriggerWords {

    /** {@code 0/5 * * * * ?}, {@code 0 0/10 * * * ?}, {@code 0 0 0/2 * * ?}: every N seconds, minutes or hours (or a star for 0). */
    private static final Pattern EVERY = Pattern.compile("(?:(?<s>(?:0|\\*)/\\d+)\\s+\\*\\s+\\*"
            + "|0\\s+(?<m>(?:0|\\*)/\\d+)\\s+\\*"
            + "|0\\s+0\\s+(?<h>(?:0|\\*)/\\d+))"
            + "\\s+[*?]\\s+\\*\\s+[*?]");
    /** {@code 0 30 2 * * ?} and {@code 0 30 2 ? * MON-FRI}: at a time of day, every day or on some days. */
    private static final Pattern AT = Pattern.compile(
            "(?<s>\\d{1,2})\\s+(?<m>\\d{1,2})\\s+(?<h>\\d{1,2})\\s+[*?]\\s+\\*\\s+(?<dow>[*?]|[A-Za-z,\\-]+)");

    private static final Map<String, String> DAYS = Map.of(
            "MON-FRI", "on weekdays",
            "SAT,SUN", "on weekends",
            "MON", "every Monday",
            "TUE", "every Tuesday",
            "WED", "every Wednesday",
            "THU", "every Thursday",
            "FRI", "every Friday",
            "SAT", "every Saturday",
            "SUN", "every Sunday");

    /** The macros of Unix cron that AX reads ({@code @hourly} is {@code 0 0 * * * ?}), in words. */
    private static final Map<String, String> MACROS = Map.of(
            "@hourly", "every hour, on the hour",
            "@daily", "at 00:00 every day",
            "@midnight", "at 00:00 every day",
            "@weekly", "at 00:00 every Sunday",
            "@monthly", "at 00:00 on the 1st of every month",
            "@yearly", "at 00:00 on 1 January every year",
            "@annually", "at 00:00 on 1 January every year");

    private TriggerWords() {}

    static String of(Trigger trigger) {
        if (trigger instanceof SpacedTrigger spaced) {
            return of(spaced.trigger()) + ", at least " + duration(spaced.minSpacing()) + " apart";
        }
        if (trigger instanceof IntervalTrigger i) {
            String words = "every " + duration(i.period()) + (i.fixedDelay() ? " after the previous run ends" : "");
            return i.initialDelay().isZero()
                    ? words
                    : words + ", the first " + duration(i.initialDelay()) + " after start";
        }
        if (trigger instanceof CronTrigger c) {
            String words = cron(c.expression().toString().trim());
            return words == null ? trigger.describe() : words + ", " + c.zone().getId();
        }
        if (trigger instanceof OnDemandTrigger) {
            return "only when triggered";
        }
        if (trigger instanceof DependencyTrigger) {
            return "when " + trigger.describe().replaceFirst("^after ", "") + " succeeded";
        }
        return trigger.describe();
    }

    private static String cron(String expression) {
        if (expression.startsWith("@")) {
            return MACROS.get(expression.toLowerCase(java.util.Locale.ROOT));
        }
        Matcher every = EVERY.matcher(expression);
        if (every.matches()) {
            String s = every.group("s");
            String m = every.group("m");
            String h = every.group("h");
            String step = (s != null ? s : m != null ? m : h).replaceFirst(".*/", "");
            String unit = s != null ? "second" : m != null ? "minute" : "hour";
            return "every " + plural(Long.parseLong(step), unit);
        }
        Matcher at = AT.matcher(expression);
        if (at.matches()) {
            String days = at.group("dow");
            String on = days.equals("*") || days.equals("?")
                    ? "every day"
                    : DAYS.get(days.toUpperCase(java.util.Locale.ROOT));
            if (on == null) {
                return null;
            }
            int second = Integer.parseInt(at.group("s"));
            String time = String.format("%02d:%02d", Integer.parseInt(at.group("h")), Integer.parseInt(at.group("m")))
                    + (second == 0 ? "" : String.format(":%02d", second));
            return "at " + time + " " + on;
        }
        return null;
    }

    /** A duration in its largest whole unit: "2 hours", "90 seconds", "250 milliseconds". */
    static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms % 86_400_000 == 0) {
            return plural(ms / 86_400_000, "day");
        }
        if (ms % 3_600_000 == 0) {
            return plural(ms / 3_600_000, "hour");
        }
        if (ms % 60_000 == 0) {
            return plural(ms / 60_000, "minute");
        }
        if (ms % 1_000 == 0) {
            return plural(ms / 1_000, "second");
        }
        return plural(ms, "millisecond");
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
