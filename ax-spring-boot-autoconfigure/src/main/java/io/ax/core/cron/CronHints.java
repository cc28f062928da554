package io.ax.core.cron;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Suggestions that turn a common mistake into the expression the user most likely meant, and the macros that
 * stand for a whole expression. Only ever adds text to an error message or expands a macro: strict Quartz parsing
 * stays as it is.
 */
final class CronHints {

    /** The macros of Unix cron, as the Quartz expression with the same fire times. */
    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 0 1 1 ?",
            "@annually", "0 0 0 1 1 ?",
            "@monthly", "0 0 0 1 * ?",
            "@weekly", "0 0 0 ? * SUN",
            "@daily", "0 0 0 * * ?",
            "@midnight", "0 0 0 * * ?",
            "@hourly", "0 0 * * * ?");

    /** A day-of-week number of Unix cron (0-7, Sunday is 0 and 7), not a step after '/' nor an nth after '#'. */
    private static final Pattern UNIX_DAY_NUMBER = Pattern.compile("(?<![/#0-9])([0-7])(?![0-9])");

    private CronHints() {}

    /** The Quartz expression a macro stands for, or null when {@code expression} is no macro. */
    static String expandMacro(String expression) {
        String trimmed = expression.trim();
        return trimmed.startsWith("@") ? MACROS.get(trimmed.toLowerCase(Locale.ROOT)) : null;
    }

    /** Whether {@code expression} looks like a macro ({@code @word}) at all. */
    static boolean looksLikeMacro(String expression) {
        return expression.trim().startsWith("@");
    }

    static String unknownMacro(String expression) {
        return "unknown macro '" + expression.trim() + "'; AX knows @yearly, @annually, @monthly, @weekly, @daily,"
                + " @midnight and @hourly";
    }

    /**
     * The hint for a Unix-style expression of five fields (minute hour day-of-month month day-of-week): the Quartz
     * expression with the same meaning, which starts with seconds and has '?' in one day field.
     */
    static String fiveFields(String expression, String[] fields) {
        String dom = fields[2];
        String dow = fields[4];
        String quartz;
        String note = "";
        if (dow.equals("*") || dow.equals("?")) {
            quartz = join(fields[0], fields[1], dom.equals("*") ? "*" : dom, fields[3], "?");
        } else if (dom.equals("*") || dom.equals("?")) {
            quartz = join(fields[0], fields[1], "?", fields[3], quartzDaysOfWeek(dow));
        } else {
            // Unix cron fires when either day field matches; Quartz cannot say "either" in one expression
            quartz = join(fields[0], fields[1], dom, fields[3], "?");
            note = " (Unix cron fires on either day field; Quartz needs '?' in one of them, so this keeps the"
                    + " day-of-month; for the weekdays use '" + join(fields[0], fields[1], "?", fields[3], dow)
                    + "')";
        }
        return "'" + expression.trim() + "' has 5 fields; AX cron starts with seconds: '" + quartz + "'" + note;
    }

    /** The hint when both day fields are restricted: which of the two to make '?'. */
    static String bothDaysRestricted(String[] fields) {
        String dom = fields[3];
        String dow = fields[5];
        String keepDom = replace(fields, 5, "?");
        String keepDow = replace(fields, 3, "?");
        if (dom.equals("*")) {
            return "put '?' in day-of-month: '" + keepDow + "'" + (dow.equals("*") ? " (or '" + keepDom + "')" : "");
        }
        if (dow.equals("*")) {
            return "put '?' in day-of-week: '" + keepDom + "'";
        }
        return "put '?' in the day field that should not count: '" + keepDom + "' (by day of month) or '" + keepDow
                + "' (by day of week)";
    }

    /** The hint when both day fields are '?': one of them must say which days. */
    static String bothDaysUnspecified(String[] fields) {
        return "put '*' in one of them for every day: '" + replace(fields, 3, "*") + "'";
    }

    /** Unix day-of-week numbers (0-7, Sunday 0 or 7) as Quartz numbers (1-7, Sunday 1); names stay names. */
    private static String quartzDaysOfWeek(String unix) {
        Matcher m = UNIX_DAY_NUMBER.matcher(unix);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            int day = Integer.parseInt(m.group(1)) % 7;
            m.appendReplacement(out, Integer.toString(day + 1));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String join(String minutes, String hours, String dom, String month, String dow) {
        return "0 " + minutes + " " + hours + " " + dom + " " + month + " " + dow;
    }

    private static String replace(String[] fields, int index, String value) {
        String[] copy = fields.clone();
        copy[index] = value;
        return String.join(" ", copy);
    }
}
