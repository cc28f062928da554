package io.ax.core.cron;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses Quartz cron syntax into the bit sets of a {@link CronExpression}.
 *
 * <p>Every problem is reported as a {@link CronParseException}; no other exception leaves {@link
 * #parse(String)}. Not thread-safe: one instance parses one expression.
 */
final class CronParser {

    private final String expression;

    private CronParser(String expression) {
        this.expression = expression;
    }

    static CronExpression parse(String expression) {
        if (expression == null) {
            throw new CronParseException(null, null, -1, "expression must not be null");
        }
        String macro = CronHints.expandMacro(expression);
        if (macro != null) {
            return new CronParser(macro).parse().named(expression);
        }
        if (CronHints.looksLikeMacro(expression)) {
            throw new CronParseException(expression, null, expression.indexOf('@'), CronHints.unknownMacro(expression));
        }
        return new CronParser(expression).parse();
    }

    private CronExpression parse() {
        List<int[]> tokens = tokenize();
        if (tokens.size() < 6) {
            String hint = tokens.size() == 5 ? CronHints.fiveFields(expression, texts(tokens)) : null;
            throw new CronParseException(
                    expression, null, expression.length(), "expected 6 or 7 fields but found " + tokens.size(), hint);
        }
        if (tokens.size() > 7) {
            throw error(null, tokens.get(7)[0], "expected 6 or 7 fields but found " + tokens.size());
        }
        long seconds = parseSimple(CronField.SECONDS, tokens.get(0));
        long minutes = parseSimple(CronField.MINUTES, tokens.get(1));
        long hours = parseSimple(CronField.HOURS, tokens.get(2));
        long months = parseSimple(CronField.MONTH, tokens.get(4));
        int[] domToken = tokens.get(3);
        int[] dowToken = tokens.get(5);
        boolean domUnspecified = isQuestionMark(domToken);
        boolean dowUnspecified = isQuestionMark(dowToken);
        if (domUnspecified == dowUnspecified) {
            String problem = domUnspecified ? "both are '?'" : "neither is '?'";
            String[] fields = texts(tokens.subList(0, 6));
            throw new CronParseException(
                    expression,
                    CronField.DAY_OF_WEEK.label,
                    dowToken[0],
                    "exactly one of day-of-month and day-of-week must be '?', but " + problem,
                    domUnspecified ? CronHints.bothDaysUnspecified(fields) : CronHints.bothDaysRestricted(fields));
        }
        DayRule days = domUnspecified ? parseDaysOfWeek(dowToken) : parseDaysOfMonth(domToken);
        long[] years;
        if (tokens.size() == 7) {
            years = parseYears(tokens.get(6));
        } else {
            years = new long[3];
            setRange(years, CronField.YEAR.min, CronField.YEAR.max, 1, CronField.YEAR);
        }
        return new CronExpression(
                expression,
                CronExpression.Syntax.QUARTZ,
                new QuartzSchedule(seconds, minutes, hours, days, months, years));
    }

    /** Splits on whitespace; each token is {start, end}. */
    private List<int[]> tokenize() {
        List<int[]> tokens = new ArrayList<>(7);
        int i = 0;
        int n = expression.length();
        while (i < n) {
            while (i < n && isSeparator(expression.charAt(i))) {
                i++;
            }
            if (i >= n) {
                break;
            }
            int start = i;
            while (i < n && !isSeparator(expression.charAt(i))) {
                i++;
            }
            tokens.add(new int[] {start, i});
        }
        return tokens;
    }

    private String[] texts(List<int[]> tokens) {
        return tokens.stream().map(t -> expression.substring(t[0], t[1])).toArray(String[]::new);
    }

    private static boolean isSeparator(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    }

    private boolean isQuestionMark(int[] token) {
        return token[1] - token[0] == 1 && expression.charAt(token[0]) == '?';
    }

    private long parseSimple(CronField field, int[] token) {
        long bits = 0;
        for (int[] item : items(field, token)) {
            bits |= parseItem(field, item[0], item[1]);
        }
        return bits;
    }

    private long[] parseYears(int[] token) {
        long[] years = new long[3];
        for (int[] item : items(CronField.YEAR, token)) {
            int[] range = parseRange(CronField.YEAR, item[0], item[1]);
            setRange(years, range[0], range[1], range[2], CronField.YEAR);
        }
        return years;
    }

    /** Splits a field on ',' into items {start, end}, rejecting empty items and a lone '?'. */
    private List<int[]> items(CronField field, int[] token) {
        List<int[]> items = new ArrayList<>(4);
        int start = token[0];
        for (int i = token[0]; i <= token[1]; i++) {
            if (i == token[1] || expression.charAt(i) == ',') {
                if (i == start) {
                    throw error(field, i, field.label + " has an empty list element");
                }
                items.add(new int[] {start, i});
                start = i + 1;
            }
        }
        for (int[] item : items) {
            int q = expression.indexOf('?', item[0]);
            if (q >= 0 && q < item[1]) {
                String why = field == CronField.DAY_OF_MONTH || field == CronField.DAY_OF_WEEK
                        ? "'?' must stand alone in " + field.label
                        : "'?' is only allowed in day-of-month or day-of-week, not in " + field.label;
                throw error(field, q, why);
            }
        }
        return items;
    }

    private long parseItem(CronField field, int start, int end) {
        int[] range = parseRange(field, start, end);
        long[] bits = new long[1];
        setRange(bits, range[0], range[1], range[2], field);
        return bits[0];
    }

    /**
     * Parses {@code *}, {@code *}/s, v, v/s, v-w or v-w/s into {from, to, step}; a range whose end is
     * below its start wraps around (except for years), as in Quartz.
     */
    private int[] parseRange(CronField field, int start, int end) {
        int from;
        int to;
        int i;
        if (expression.charAt(start) == '*') {
            from = field.min;
            to = field.max;
            i = start + 1;
        } else {
            int[] value = readValue(field, start, end);
            from = value[0];
            i = value[1];
            to = from;
            if (i < end && expression.charAt(i) == '-') {
                int[] last = readValue(field, i + 1, end);
                to = last[0];
                i = last[1];
                if (field == CronField.YEAR && to < from) {
                    throw error(field, i - 1, "year range " + from + "-" + to + " ends before it starts");
                }
            } else if (i < end && expression.charAt(i) == '/') {
                to = field.max;
            }
        }
        int step = 1;
        if (i < end && expression.charAt(i) == '/') {
            int[] value = readNumber(field, i + 1, end, "step");
            step = value[0];
            if (step < 1 || step > field.maxStep) {
                throw error(field, i + 1, field.label + " step " + step + " out of range 1-" + field.maxStep);
            }
            i = value[1];
        }
        if (i < end) {
            throw unexpected(field, i);
        }
        return new int[] {from, to, step};
    }

    /** Reads a number or (for month and day-of-week) a three-letter name: {value, next index}. */
    private int[] readValue(CronField field, int start, int end) {
        if (start < end && Character.isLetter(expression.charAt(start)) && field.hasNames()) {
            if (start + 3 > end) {
                throw error(
                        field, start, "invalid " + field.label + " name '" + expression.substring(start, end) + "'");
            }
            String name = expression.substring(start, start + 3);
            int value = field.valueOfName(name);
            if (value < 0) {
                throw error(field, start, "invalid " + field.label + " name '" + name + "'");
            }
            return new int[] {value, start + 3};
        }
        int[] number = readNumber(field, start, end, "value");
        if (number[0] < field.min || number[0] > field.max) {
            throw error(
                    field, start, field.label + " value " + number[0] + " out of range " + field.min + "-" + field.max);
        }
        return number;
    }

    /** Reads decimal digits: {value, next index}; values too large to matter are capped. */
    private int[] readNumber(CronField field, int start, int end, String what) {
        int i = start;
        long value = 0;
        while (i < end && isDigit(expression.charAt(i))) {
            value = Math.min(value * 10 + (expression.charAt(i) - '0'), 1_000_000_000L);
            i++;
        }
        if (i == start) {
            if (start >= end) {
                throw error(field, start, field.label + " " + what + " is missing");
            }
            throw unexpected(field, start);
        }
        return new int[] {(int) value, i};
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static void setRange(long[] bits, int from, int to, int step, CronField field) {
        int size = field.max - field.min + 1;
        int span = Math.floorMod(to - from, size);
        for (int k = 0; k <= span; k += step) {
            int value = field.min + (from - field.min + k) % size;
            int bit = field == CronField.YEAR ? value - field.min : value;
            bits[bit >>> 6] |= 1L << (bit & 63);
        }
    }

    private DayRule parseDaysOfMonth(int[] token) {
        CronField field = CronField.DAY_OF_MONTH;
        long days = 0;
        long lastOffsets = 0;
        long weekdays = 0;
        long weekdaysToLast = 0;
        for (int[] item : items(field, token)) {
            int start = item[0];
            int end = item[1];
            char first = Character.toUpperCase(expression.charAt(start));
            boolean endsWithW = Character.toUpperCase(expression.charAt(end - 1)) == 'W';
            if (first == 'L') {
                int stop = endsWithW ? end - 1 : end;
                int offset = 0;
                if (start + 1 < stop) {
                    if (expression.charAt(start + 1) != '-') {
                        throw unexpected(field, start + 1);
                    }
                    int[] number = readNumber(field, start + 2, stop, "offset from the last day");
                    if (number[1] < stop) {
                        throw unexpected(field, number[1]);
                    }
                    offset = number[0];
                    if (offset > 30) {
                        throw error(field, start + 2, "offset from the last day " + offset + " out of range 0-30");
                    }
                }
                if (endsWithW) {
                    weekdaysToLast |= 1L << offset;
                } else {
                    lastOffsets |= 1L << offset;
                }
            } else if (endsWithW) {
                int[] value = readValue(field, start, end - 1);
                if (value[1] != end - 1) {
                    throw unexpected(field, value[1]);
                }
                weekdays |= 1L << value[0];
            } else {
                days |= parseItem(field, start, end);
            }
        }
        return DayRule.ofDaysOfMonth(days, lastOffsets, weekdays, weekdaysToLast);
    }

    private DayRule parseDaysOfWeek(int[] token) {
        CronField field = CronField.DAY_OF_WEEK;
        List<int[]> items = items(field, token);
        boolean special = false;
        for (int i = token[0]; i < token[1]; i++) {
            char c = Character.toUpperCase(expression.charAt(i));
            special |= c == 'L' || c == '#';
        }
        if (!special) {
            return DayRule.ofDaysOfWeek((int) parseSimple(field, token));
        }
        if (items.size() > 1) {
            throw error(field, token[0], "'L' and '#' cannot be combined with other day-of-week values");
        }
        int start = token[0];
        int end = token[1];
        if (Character.toUpperCase(expression.charAt(start)) == 'L') {
            if (end - start > 1) {
                throw unexpected(field, start + 1);
            }
            // A lone "L" means Saturday, the last day of the week, as in Quartz.
            return DayRule.ofDaysOfWeek(1 << 7);
        }
        int[] value = readValue(field, start, end);
        int i = value[1];
        if (i < end && Character.toUpperCase(expression.charAt(i)) == 'L' && i + 1 == end) {
            return DayRule.ofLastDayOfWeek(value[0]);
        }
        if (i < end && expression.charAt(i) == '#') {
            int[] nth = readNumber(field, i + 1, end, "occurrence after '#'");
            if (nth[1] < end) {
                throw unexpected(field, nth[1]);
            }
            if (nth[0] < 1 || nth[0] > 5) {
                throw error(field, i + 1, "occurrence after '#' " + nth[0] + " out of range 1-5");
            }
            return DayRule.ofNthDayOfWeek(value[0], nth[0]);
        }
        throw unexpected(field, i < end ? i : end - 1);
    }

    private CronParseException unexpected(CronField field, int position) {
        return error(field, position, "unexpected character '" + expression.charAt(position) + "' in " + field.label);
    }

    private CronParseException error(CronField field, int position, String detail) {
        return new CronParseException(expression, field == null ? null : field.label, position, detail);
    }
}
