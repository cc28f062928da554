package io.ax.core.cron;

import java.time.DayOfWeek;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads Spring's cron syntax: accepts exactly what Spring Framework 7's {@code CronExpression.parse} accepts, with
 * the same meaning, and says in words what is wrong with the rest.
 *
 * <p>Spring's reading has edges that this parser keeps on purpose, so that an adopted expression keeps its meaning:
 * fields are separated by spaces only (a tab inside a field makes it invalid, around one it is trimmed); numbers are
 * read as {@link Integer#parseInt(String)} reads them, sign included ({@code +5} is 5); names are replaced by their
 * numbers wherever they occur in the upper-cased field, before the field is read ({@code mon-fri} is {@code 1-5});
 * {@code ?} counts as {@code *} only where it is a whole day field or a whole item of a listed day rule; a step after a
 * single value runs to the end of the field's range ({@code 5/15} is 5, 20, 35, 50). Not thread-safe: one instance
 * parses one expression.
 */
final class SpringCronParser {

    private static final String[][] MACROS = {
        {"@yearly", "0 0 0 1 1 *"},
        {"@annually", "0 0 0 1 1 *"},
        {"@monthly", "0 0 0 1 * *"},
        {"@weekly", "0 0 0 * * 0"},
        {"@daily", "0 0 0 * * *"},
        {"@midnight", "0 0 0 * * *"},
        {"@hourly", "0 0 * * * *"}
    };

    private static final String[] MONTH_NAMES = {
        "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"
    };
    /** Spring numbers the days from Monday (1) to Sunday (7), as {@link DayOfWeek} does; 0 is Sunday too. */
    private static final String[] DAY_NAMES = {"MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"};

    private static final String FIELDS = "second minute hour day-of-month month day-of-week";

    private final String expression;

    // The field being read, for the messages: its name, its text as written and where that starts.
    private CronField field;
    private String written;
    private int position;

    private SpringCronParser(String expression) {
        this.expression = expression;
    }

    static CronExpression parse(String expression) {
        if (expression == null || expression.isEmpty()) {
            throw new CronParseException(
                    CronExpression.Syntax.SPRING, expression, null, -1, "expression must not be empty", null);
        }
        return new SpringCronParser(expression).parse();
    }

    private CronExpression parse() {
        String trimmed = expression.trim();
        int offset = trimmed.isEmpty() ? 0 : expression.indexOf(trimmed.charAt(0));
        String text = trimmed;
        for (String[] macro : MACROS) {
            if (macro[0].equalsIgnoreCase(trimmed)) {
                text = macro[1];
                offset = -1; // a macro is valid: no position is ever reported in its expansion
            }
        }
        if (text.startsWith("@")) {
            throw new CronParseException(
                    CronExpression.Syntax.SPRING,
                    expression,
                    null,
                    offset,
                    "unknown macro '" + trimmed + "'; Spring knows @yearly, @annually, @monthly, @weekly, @daily,"
                            + " @midnight and @hourly",
                    null);
        }
        List<String> tokens = new ArrayList<>(6);
        List<Integer> starts = new ArrayList<>(6);
        split(text, offset, tokens, starts);
        if (tokens.size() != 6) {
            throw new CronParseException(
                    CronExpression.Syntax.SPRING,
                    expression,
                    null,
                    tokens.size() > 6 ? starts.get(6) : expression.length(),
                    "expected 6 fields (" + FIELDS + ") but found " + tokens.size(),
                    fieldCountHint(tokens));
        }
        SpringField seconds = values(CronField.SECONDS, SpringUnit.SECOND, tokens.get(0), starts.get(0));
        SpringField minutes = values(CronField.MINUTES, SpringUnit.MINUTE, tokens.get(1), starts.get(1));
        SpringField hours = values(CronField.HOURS, SpringUnit.HOUR, tokens.get(2), starts.get(2));
        SpringField daysOfMonth = daysOfMonth(tokens.get(3), starts.get(3));
        SpringField months = months(tokens.get(4), starts.get(4));
        SpringField daysOfWeek = daysOfWeek(tokens.get(5), starts.get(5));
        return new CronExpression(
                expression,
                CronExpression.Syntax.SPRING,
                new SpringSchedule(seconds, minutes, hours, daysOfMonth, months, daysOfWeek));
    }

    /**
     * Splits on spaces (only), trims each part as {@link String#trim()} does and drops the empty ones, as Spring
     * does; records where each part starts in the expression ({@code offset} is where {@code text} starts, or -1).
     */
    private static void split(String text, int offset, List<String> tokens, List<Integer> starts) {
        int i = 0;
        while (i < text.length()) {
            int end = text.indexOf(' ', i);
            if (end < 0) {
                end = text.length();
            }
            String part = text.substring(i, end);
            String token = part.trim();
            if (!token.isEmpty()) {
                tokens.add(token);
                starts.add(offset < 0 ? -1 : offset + i + part.indexOf(token));
            }
            i = end + 1;
        }
    }

    private static String fieldCountHint(List<String> tokens) {
        if (tokens.size() == 5) {
            return "Spring's cron starts with seconds: '0 " + String.join(" ", tokens) + "'";
        }
        if (tokens.size() == 7) {
            return "Spring's cron has no year field";
        }
        return null;
    }

    // ---- plain fields: values, ranges and steps

    private SpringValues values(CronField name, SpringUnit unit, String token, int start) {
        reading(name, token, start);
        return new SpringValues(unit, valueBits(unit, token));
    }

    private long valueBits(SpringUnit unit, String text) {
        long bits = 0;
        for (String item : text.split(",", -1)) {
            bits |= itemBits(unit, item);
        }
        return bits;
    }

    /** One item: {@code *}, {@code v}, {@code a-b}, each optionally with {@code /step}. */
    private long itemBits(SpringUnit unit, String item) {
        int slash = item.indexOf('/');
        String rangeText = slash < 0 ? item : item.substring(0, slash);
        int[] range = range(unit, rangeText);
        int step = 1;
        if (slash >= 0) {
            if (rangeText.indexOf('-') < 0) {
                range[1] = (int) unit.range().getMaximum(); // "5/15" and "*/15" run to the end of the field
            }
            step = number(item.substring(slash + 1), "step");
            if (step <= 0) {
                throw error("step " + step + " must be 1 or higher");
            }
        }
        long bits = 0;
        // int arithmetic as in Spring: a step near Integer.MAX_VALUE wraps around, and so does the shift
        for (int value = range[0]; value <= range[1]; value += step) {
            bits |= 1L << value;
        }
        return bits;
    }

    private int[] range(SpringUnit unit, String text) {
        if (text.equals("*")) {
            return new int[] {
                (int) unit.range().getMinimum(), (int) unit.range().getMaximum()
            };
        }
        int hyphen = text.indexOf('-');
        if (hyphen < 0) {
            int value = checked(unit, number(text, "value"));
            return new int[] {value, value};
        }
        int first = number(text.substring(0, hyphen), "range start");
        int last = number(text.substring(hyphen + 1), "range end");
        checked(unit, first);
        checked(unit, last);
        if (unit == SpringUnit.DAY_OF_WEEK && first == 7) {
            first = 0; // Sunday first in a range is 0, so 7-1 is Sunday and Monday
        }
        if (first > last) {
            throw error("range " + text + " ends before it starts (Spring's ranges do not wrap around; list both"
                    + " parts instead, such as 22-23,0-2)");
        }
        return new int[] {first, last};
    }

    private int checked(SpringUnit unit, int value) {
        if (unit == SpringUnit.DAY_OF_WEEK && value == 0) {
            return value;
        }
        if (!unit.range().isValidIntValue(value)) {
            String range = unit == SpringUnit.DAY_OF_WEEK
                    ? "0-7 (0 and 7 are Sunday)"
                    : unit.range().getMinimum() + "-" + unit.range().getMaximum();
            throw error("value " + value + " out of range " + range);
        }
        return value;
    }

    private int number(String text, String what) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            String names = field == CronField.MONTH
                    ? " (names are JAN-DEC)"
                    : field == CronField.DAY_OF_WEEK ? " (names are SUN-SAT)" : "";
            String shown = text.isEmpty() ? "an empty " + what : what + " '" + text + "'";
            throw error(shown + " is not a number" + names);
        }
    }

    // ---- the day fields and the month

    private SpringField daysOfMonth(String token, int start) {
        reading(CronField.DAY_OF_MONTH, token, start);
        if (!token.contains("L") && !token.contains("W")) {
            return new SpringValues(SpringUnit.DAY_OF_MONTH, valueBits(SpringUnit.DAY_OF_MONTH, anyFor(token)));
        }
        List<SpringField> rules = new ArrayList<>();
        for (String item : token.split(",", -1)) {
            rules.add(
                    item.contains("L") || item.contains("W")
                            ? dayOfMonthRule(item)
                            : new SpringValues(
                                    SpringUnit.DAY_OF_MONTH, valueBits(SpringUnit.DAY_OF_MONTH, anyFor(item))));
        }
        return rules.size() == 1 ? rules.get(0) : new SpringAnyOf(rules);
    }

    private SpringField dayOfMonthRule(String item) {
        int l = item.lastIndexOf('L');
        if (l >= 0) {
            if (l != 0) {
                throw itemError(item, "'L' must come first (L, L-n or LW)");
            }
            if (item.equals("LW")) {
                return SpringDayRule.lastWeekday();
            }
            if (item.equals("L")) {
                return SpringDayRule.lastDay();
            }
            int offset = number(item.substring(1), "offset after 'L'");
            if (offset >= 0) {
                throw itemError(item, "after 'L' comes '-' and a number of days of 1 or more, such as L-3");
            }
            return SpringDayRule.daysBeforeLast(-offset);
        }
        int w = item.lastIndexOf('W');
        if (w == 0) {
            throw itemError(item, "'W' needs a day of the month before it, such as 15W");
        }
        if (w != item.length() - 1) {
            throw itemError(item, "'W' must come last, such as 15W");
        }
        return SpringDayRule.nearestWeekday(checked(SpringUnit.DAY_OF_MONTH, number(item.substring(0, w), "day")));
    }

    private SpringValues months(String token, int start) {
        reading(CronField.MONTH, token, start);
        return new SpringValues(SpringUnit.MONTH, valueBits(SpringUnit.MONTH, numbered(token, MONTH_NAMES)));
    }

    private SpringField daysOfWeek(String token, int start) {
        reading(CronField.DAY_OF_WEEK, token, start);
        String text = numbered(token, DAY_NAMES);
        if (!text.contains("L") && !text.contains("#")) {
            return new SpringValues(
                    SpringUnit.DAY_OF_WEEK, sundayAsSeven(valueBits(SpringUnit.DAY_OF_WEEK, anyFor(text))));
        }
        List<SpringField> rules = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            rules.add(
                    item.contains("L") || item.contains("#")
                            ? dayOfWeekRule(item)
                            : new SpringValues(
                                    SpringUnit.DAY_OF_WEEK,
                                    sundayAsSeven(valueBits(SpringUnit.DAY_OF_WEEK, anyFor(item)))));
        }
        return rules.size() == 1 ? rules.get(0) : new SpringAnyOf(rules);
    }

    private SpringField dayOfWeekRule(String item) {
        int l = item.lastIndexOf('L');
        if (l >= 0) {
            if (l != item.length() - 1) {
                throw itemError(item, "'L' must come last, such as 5L or FRIL");
            }
            if (l == 0) {
                throw error("'L' needs a day of the week before it, such as 5L or FRIL (Quartz's lone L, Saturday,"
                        + " is SAT or 6 in Spring's syntax)");
            }
            return SpringDayRule.lastOf(dayOfWeek(item.substring(0, l)));
        }
        int hash = item.lastIndexOf('#');
        if (hash == 0) {
            throw itemError(item, "'#' needs a day of the week before it, such as MON#2");
        }
        if (hash == item.length() - 1) {
            throw itemError(item, "'#' needs an occurrence after it, such as MON#2");
        }
        DayOfWeek day = dayOfWeek(item.substring(0, hash));
        int occurrence = number(item.substring(hash + 1), "occurrence after '#'");
        if (occurrence <= 0) {
            throw itemError(item, "the occurrence after '#' must be 1 or more");
        }
        return SpringDayRule.nthOf(day, occurrence);
    }

    private DayOfWeek dayOfWeek(String text) {
        int day = number(text, "day of the week");
        if (day < 0 || day > 7) {
            throw error("value " + day + " out of range 0-7 (0 and 7 are Sunday)");
        }
        return DayOfWeek.of(day == 0 ? 7 : day);
    }

    /** A whole day field or item {@code ?} means any day, as {@code *}. */
    private static String anyFor(String text) {
        return text.equals("?") ? "*" : text;
    }

    /** The upper-cased text with every name replaced by its number, wherever it occurs, as Spring does. */
    private static String numbered(String text, String[] names) {
        String upper = text.toUpperCase(Locale.ROOT);
        for (int i = 0; i < names.length; i++) {
            upper = upper.replace(names[i], Integer.toString(i + 1));
        }
        return upper;
    }

    /** Day-of-week values are read with Sunday as 0 or 7; the search knows it as 7, as {@link DayOfWeek} does. */
    private static long sundayAsSeven(long bits) {
        return (bits & 1L) != 0 ? (bits | 1L << 7) & ~1L : bits;
    }

    private void reading(CronField name, String token, int start) {
        this.field = name;
        this.written = token;
        this.position = start;
    }

    /** An error in one item of a list: the item is named when it is not the whole field. */
    private CronParseException itemError(String item, String detail) {
        return error(item.equals(written) ? detail : "'" + item + "': " + detail);
    }

    private CronParseException error(String detail) {
        return new CronParseException(
                CronExpression.Syntax.SPRING,
                expression,
                field.label,
                position,
                field.label + " '" + written + "': " + detail,
                null);
    }
}
