package io.ax.core.cron;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Compares {@link CronExpression#parseSpring(String)} with Spring Framework's own {@code CronExpression} over a few
 * thousand generated expressions: every one Spring refuses, AX must refuse; for every one Spring accepts, AX must
 * accept it and find the same chain of next fire times from several starts in several zones (starts near
 * daylight-saving changes among them), or refuse it with a message, which the report counts by reason. The
 * generator is seeded, so every run compares the same cases; the report is printed.
 */
class SpringCronConformanceTest {

    private static final long SEED = 7_000_007L;
    private static final int EXPRESSIONS = 3_000;
    private static final int CHAIN = 20;
    private static final int STARTS_PER_ZONE = 2;
    private static final int SHOWN = 25;

    /** UTC, two zones with hour-long changes at 02:00 and 03:00, one with a 30-minute change, one changing at 24:00. */
    private static final List<ZoneId> ZONES = List.of(
            ZoneOffset.UTC,
            ZoneId.of("Europe/Berlin"),
            ZoneId.of("America/New_York"),
            ZoneId.of("Australia/Lord_Howe"),
            ZoneId.of("America/Santiago"));

    private static final String[] MONTHS = {
        "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"
    };
    private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};
    private static final String[] MACROS = {
        "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"
    };

    private final Random random = new Random(SEED);
    private final Map<ZoneId, List<Instant>> transitions =
            new TreeMap<>((a, b) -> a.getId().compareTo(b.getId()));

    @Test
    void acceptsWhatSpringAcceptsAndFindsTheSameFireTimesAndRefusesWhatSpringRefuses() {
        long began = System.nanoTime();
        Report report = new Report();
        for (int i = 0; i < EXPRESSIONS; i++) {
            compare(expression(), report);
        }
        report.print((System.nanoTime() - began) / 1_000_000);
        assertThat(report.acceptedWhatSpringRefuses)
                .as("accepted, though Spring refuses")
                .isEmpty();
        assertThat(report.disagreements)
                .as("next fire times that differ from Spring's")
                .isEmpty();
        assertThat(report.failures)
                .as("exceptions other than CronParseException")
                .isEmpty();
        assertThat(report.refusedBy)
                .as("refused, though Spring accepts, by reason")
                .isEmpty();
        // the generator must really reach both sides and the day-rule, DST and macro paths
        assertThat(report.springAccepted).isGreaterThan(EXPRESSIONS / 2);
        assertThat(report.springRefused).isGreaterThan(EXPRESSIONS / 20);
        assertThat(report.compared).isGreaterThan(EXPRESSIONS * 50L);
    }

    private void compare(String expression, Report report) {
        report.expressions++;
        org.springframework.scheduling.support.CronExpression spring;
        try {
            spring = org.springframework.scheduling.support.CronExpression.parse(expression);
        } catch (IllegalArgumentException e) {
            spring = null;
        }
        CronExpression ax;
        try {
            ax = CronExpression.parseSpring(expression);
        } catch (CronParseException e) {
            ax = null;
            if (spring == null) {
                report.springRefused++;
                report.bothRefused++;
            } else {
                report.springAccepted++;
                report.refusedBy.merge(reason(e), 1, Integer::sum);
                report.show(report.refusedExamples, "'" + expression + "': " + e.getMessage());
            }
            return;
        } catch (RuntimeException e) {
            report.show(report.failures, "'" + expression + "': " + e);
            return;
        }
        if (spring == null) {
            report.springRefused++;
            report.show(report.acceptedWhatSpringRefuses, "'" + expression + "'");
            return;
        }
        report.springAccepted++;
        report.bothAccepted++;
        report.cover(expression);
        assertThat(ax.syntax()).isEqualTo(CronExpression.Syntax.SPRING);
        assertThat(ax.toString()).isEqualTo(expression);
        int starts = STARTS_PER_ZONE;
        for (ZoneId zone : ZONES) {
            for (int s = 0; s < starts; s++) {
                if (chain(expression, spring, ax, start(zone), report) == 0) {
                    // no fire time at all (the 31st of February): a search that finds none is the slowest kind,
                    // and one start per zone shows whether AX finds none too
                    starts = 1;
                }
            }
        }
    }

    /**
     * Follows Spring's chain of next times from {@code start} and asks AX for each of them; returns how many fire times
     * the chain found.
     */
    private static int chain(
            String expression,
            org.springframework.scheduling.support.CronExpression spring,
            CronExpression ax,
            ZonedDateTime start,
            Report report) {
        ZonedDateTime after = start;
        for (int i = 0; i < CHAIN; i++) {
            ZonedDateTime expected;
            try {
                expected = spring.next(after);
            } catch (RuntimeException e) {
                report.springThrew++;
                expected = null; // Spring's search failed (a date out of range): AX answers that there is none
            }
            Optional<ZonedDateTime> actual;
            Optional<Instant> actualInstant;
            try {
                actual = ax.next(after);
                // the instant form, which triggers use, takes the same path: asked once per chain
                actualInstant =
                        i == 0 ? ax.next(after.toInstant(), after.getZone()) : actual.map(ZonedDateTime::toInstant);
            } catch (RuntimeException e) {
                report.show(report.failures, "'" + expression + "' after " + after + ": " + e);
                return i;
            }
            report.compared++;
            if (expected != null && !expected.isAfter(after)) {
                // Spring's search loops back here (its defect): AX answers where Spring's search moves on
                report.loopsBack++;
                report.springNotAfter.putIfAbsent(expression, "after " + after + ": " + expected);
                expected = pastLoop(spring, after);
            }
            boolean same = actual.equals(Optional.ofNullable(expected))
                    && actualInstant.equals(Optional.ofNullable(expected).map(ZonedDateTime::toInstant));
            if (!same) {
                report.show(
                        report.disagreements,
                        String.format(
                                "'%s' after %s: AX %s (as instant %s), Spring %s",
                                expression, after, actual.orElse(null), actualInstant.orElse(null), expected));
                return i;
            }
            if (expected == null) {
                report.none++;
                return i;
            }
            after = expected;
        }
        return CHAIN;
    }

    /**
     * What AX answers where Spring's search answers a time not after the start: Spring's answer from the first later
     * second (found by doubling, then halving the distance) from which its search moves past the start.
     */
    private static ZonedDateTime pastLoop(
            org.springframework.scheduling.support.CronExpression spring, ZonedDateTime after) {
        long behind = 0;
        long ahead = 1;
        while (!movesOn(spring, after, ahead)) {
            behind = ahead;
            ahead *= 2;
        }
        while (ahead - behind > 1) {
            long middle = behind + (ahead - behind) / 2;
            if (movesOn(spring, after, middle)) {
                ahead = middle;
            } else {
                behind = middle;
            }
        }
        return spring.next(after.plusSeconds(ahead));
    }

    private static boolean movesOn(
            org.springframework.scheduling.support.CronExpression spring, ZonedDateTime after, long seconds) {
        ZonedDateTime found = spring.next(after.plusSeconds(seconds));
        return found == null || found.isAfter(after);
    }

    private static String reason(CronParseException e) {
        String message = e.getMessage();
        int colon = message.indexOf("': ");
        String detail = colon < 0 ? message : message.substring(colon + 3);
        return detail.replaceAll("'[^']*'", "'…'").replaceAll("\\d+", "n");
    }

    // ---- starts

    private ZonedDateTime start(ZoneId zone) {
        List<Instant> changes = transitions.computeIfAbsent(zone, SpringCronConformanceTest::transitionsOf);
        Instant start;
        if (changes.isEmpty() || random.nextInt(4) == 0) {
            LocalDateTime local = LocalDateTime.of(2024, 1, 1, 0, 0)
                    .plusMinutes(random.nextInt(3 * 366 * 24 * 60))
                    .plusSeconds(random.nextInt(60));
            start = local.atZone(zone).toInstant();
        } else {
            Instant change = changes.get(random.nextInt(changes.size()));
            long[] offsets = {-86_400, -3 * 3600, -3600, -1800, -60, -1, 0, 1, 1800, 3600, 86_399};
            start = change.plusSeconds(offsets[random.nextInt(offsets.length)]);
        }
        if (random.nextInt(10) == 0) {
            start = start.plusMillis(1 + random.nextInt(999)); // a fraction of a second
        }
        return start.atZone(zone);
    }

    private static List<Instant> transitionsOf(ZoneId zone) {
        List<Instant> changes = new ArrayList<>();
        Instant from = Instant.parse("2024-01-01T00:00:00Z");
        ZoneOffsetTransition t = zone.getRules().nextTransition(from);
        while (t != null && t.getInstant().isBefore(Instant.parse("2027-01-01T00:00:00Z"))) {
            changes.add(t.getInstant());
            t = zone.getRules().nextTransition(t.getInstant());
        }
        return changes;
    }

    // ---- the generator: mostly valid expressions of every construct, some invalid ones

    private String expression() {
        int kind = random.nextInt(100);
        if (kind < 3) {
            String macro = MACROS[random.nextInt(MACROS.length)];
            return pad(random.nextBoolean() ? macro : macro.toUpperCase(Locale.ROOT));
        }
        if (kind < 4) {
            return pick("@reboot", "@every", "@daily 0", "@");
        }
        List<String> fields = new ArrayList<>(List.of(
                timeField(0, 59, this::secondValue),
                timeField(0, 59, this::minuteValue),
                timeField(0, 23, this::hourValue),
                dayOfMonthField(),
                monthField(),
                dayOfWeekField()));
        if (kind < 5) {
            if (random.nextBoolean()) {
                fields.remove(0); // five fields, as in Unix cron
            } else {
                fields.add(Integer.toString(2024 + random.nextInt(5))); // a year, as in Quartz
            }
        }
        if (kind < 6) {
            // break one field with something no cron syntax allows
            int f = random.nextInt(fields.size());
            fields.set(f, pick("", "x", "1-", "-1", "1//2", "1,,2", "*5", "5*", "1-2-3", "1.5", "%", "1;2", "**"));
            if (fields.get(f).isEmpty()) {
                fields.set(f, ",");
            }
        }
        String separator = random.nextInt(20) == 0 ? pick("  ", "   ", " \t ") : " ";
        return pad(String.join(separator, fields));
    }

    private String pad(String expression) {
        return switch (random.nextInt(30)) {
            case 0 -> " " + expression;
            case 1 -> expression + "  ";
            case 2 -> "\t" + expression + "\n";
            default -> expression;
        };
    }

    /** Seconds, minutes or hours: values, ranges, steps and lists, sometimes out of range or reversed. */
    private String timeField(int min, int max, Supplier<Integer> value) {
        int kind = random.nextInt(100);
        if (kind < 25) {
            return "*";
        }
        if (kind < 26) {
            return "?"; // only day fields take '?'
        }
        if (kind < 95) {
            int items = random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1;
            List<String> list = new ArrayList<>();
            for (int i = 0; i < items; i++) {
                list.add(timeItem(min, max, value));
            }
            return String.join(",", list);
        }
        if (kind < 98) {
            return pick("" + (max + 1), "-1", "+" + value.get(), "0" + value.get());
        }
        int a = value.get();
        int b = value.get();
        return Math.max(a, b) + "-" + Math.min(a, b) + (random.nextBoolean() ? "" : "/" + (1 + random.nextInt(5)));
    }

    private String timeItem(int min, int max, Supplier<Integer> value) {
        int kind = random.nextInt(10);
        int a = value.get();
        return switch (kind) {
            case 0, 1, 2, 3 -> Integer.toString(a);
            case 4 -> {
                int b = value.get();
                yield Math.min(a, b) + "-" + Math.max(a, b);
            }
            case 5 -> "*/" + step(max);
            case 6 -> a + "/" + step(max);
            case 7 -> {
                int b = value.get();
                yield Math.min(a, b) + "-" + Math.max(a, b) + "/" + step(max);
            }
            case 8 -> min + "-" + max;
            default -> random.nextInt(20) == 0 ? a + "/0" : Integer.toString(a);
        };
    }

    private int step(int max) {
        return random.nextInt(8) == 0 ? max + random.nextInt(10) : 1 + random.nextInt(Math.min(max, 20));
    }

    private int secondValue() {
        return random.nextBoolean() ? pickInt(0, 0, 30, 59) : random.nextInt(60);
    }

    private int minuteValue() {
        return random.nextBoolean() ? pickInt(0, 15, 30, 45, 59) : random.nextInt(60);
    }

    /** Hours near the daylight-saving changes (0 to 3) come up most often. */
    private int hourValue() {
        return random.nextInt(3) > 0 ? random.nextInt(4) : random.nextInt(24);
    }

    private String dayOfMonthField() {
        int kind = random.nextInt(100);
        if (kind < 30) {
            return pick("*", "?");
        }
        if (kind < 55) {
            return timeField(1, 31, this::dayOfMonthValue);
        }
        if (kind < 97) {
            int items = random.nextInt(4) == 0 ? 2 : 1;
            List<String> list = new ArrayList<>();
            for (int i = 0; i < items; i++) {
                list.add(random.nextInt(4) == 0 ? timeItem(1, 31, this::dayOfMonthValue) : dayOfMonthRule());
            }
            return String.join(",", list);
        }
        return pick("0", "32", "l", "lw", "15w", "L-0", "L3", "L-3W", "W", "1L", "LL", "L-", "15W2", "?,1", "L,?");
    }

    private String dayOfMonthRule() {
        return switch (random.nextInt(6)) {
            case 0 -> "L";
            case 1 -> "LW";
            case 2 -> "L-" + (random.nextInt(5) == 0 ? 25 + random.nextInt(12) : 1 + random.nextInt(10));
            default -> (random.nextInt(3) == 0 ? pickInt(1, 2, 28, 29, 30, 31) : 1 + random.nextInt(31)) + "W";
        };
    }

    private int dayOfMonthValue() {
        return random.nextInt(3) == 0 ? pickInt(1, 13, 29, 30, 31) : 1 + random.nextInt(31);
    }

    private String monthField() {
        int kind = random.nextInt(100);
        if (kind < 55) {
            return "*";
        }
        if (kind < 80) {
            return timeField(1, 12, () -> 1 + random.nextInt(12));
        }
        if (kind < 98) {
            int a = random.nextInt(12);
            int b = random.nextInt(12);
            String first = month(Math.min(a, b));
            return switch (random.nextInt(4)) {
                case 0 -> first;
                case 1 -> first + "-" + month(Math.max(a, b));
                case 2 -> first + "," + month(Math.max(a, b));
                default -> first + "/" + (1 + random.nextInt(4));
            };
        }
        return pick("0", "13", "?", "L", month(11) + "-" + month(0), "JANUARY", "1JAN", "JUN-", "*/0");
    }

    private String month(int index) {
        String name = MONTHS[index];
        return switch (random.nextInt(4)) {
            case 0 -> name.toLowerCase(Locale.ROOT);
            case 1 -> Integer.toString(index + 1);
            default -> name;
        };
    }

    private String dayOfWeekField() {
        int kind = random.nextInt(100);
        if (kind < 35) {
            return pick("*", "?");
        }
        if (kind < 60) {
            int items = random.nextInt(4) == 0 ? 2 : 1;
            List<String> list = new ArrayList<>();
            for (int i = 0; i < items; i++) {
                list.add(dayOfWeekItem());
            }
            return String.join(",", list);
        }
        if (kind < 96) {
            String rule = dayOfWeekRule();
            return random.nextInt(5) == 0 ? dayOfWeekItem() + "," + rule : rule;
        }
        return pick("8", "-1", "L", "l", "#2", "1#", "1#0", "5L2", "FRI-MON", "6-2", "SUNDAY", "1#2#3", "L5", "0-8");
    }

    private String dayOfWeekItem() {
        int a = random.nextInt(8);
        int b = random.nextInt(8);
        return switch (random.nextInt(8)) {
            case 0, 1 -> day(a);
            case 2, 3 -> day(Math.min(a, b)) + "-" + day(Math.max(a, b));
            case 4 -> pick("7-1", "7-7", "0-7", "7-0", "SUN-SAT", "MON-SUN", "1-7", "0-6", "7-3");
            case 5 -> "*/" + (1 + random.nextInt(4));
            case 6 -> day(a) + "/" + (1 + random.nextInt(4));
            default -> day(Math.min(a, b)) + "-" + day(Math.max(a, b)) + "/" + (1 + random.nextInt(3));
        };
    }

    private String dayOfWeekRule() {
        int day = random.nextInt(8);
        return random.nextBoolean() ? day(day) + pick("L", "l") : day(day) + "#" + pickInt(1, 1, 2, 3, 4, 5, 5, 6);
    }

    /** Day 0 to 7 as a number or, for 0 to 6, as a name in some case (7 has no name of its own). */
    private String day(int day) {
        if (day == 7 || random.nextBoolean()) {
            return Integer.toString(day);
        }
        String name = DAYS[day];
        return random.nextBoolean() ? name : name.toLowerCase(Locale.ROOT);
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }

    private int pickInt(int... options) {
        return options[random.nextInt(options.length)];
    }

    /** What the comparison found. */
    private static final class Report {
        int expressions;
        int springAccepted;
        int springRefused;
        int bothAccepted;
        int bothRefused;
        long compared;
        long none;
        long springThrew;
        long loopsBack;
        final Map<String, Integer> refusedBy = new TreeMap<>();
        final Map<String, Integer> coverage = new TreeMap<>();
        final List<String> refusedExamples = new ArrayList<>();
        final List<String> acceptedWhatSpringRefuses = new ArrayList<>();
        final List<String> disagreements = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        final Map<String, String> springNotAfter = new TreeMap<>();

        /** Counts the constructs an accepted expression uses, to show what the comparison reached. */
        void cover(String expression) {
            String[] f = expression.trim().split(" +");
            if (f.length != 6) {
                coverage.merge("macros", 1, Integer::sum);
                return;
            }
            String dom = f[3];
            String dow = f[5].toUpperCase(Locale.ROOT);
            count(dom.matches(".*(^|,)L(,|$).*"), "L");
            count(dom.contains("L-"), "L-n");
            count(dom.contains("LW"), "LW");
            count(dom.matches(".*\\dW.*"), "nW");
            count(dow.matches(".*[0-7A-Z]L.*"), "nL");
            count(dow.contains("#"), "n#k");
            count(!dom.equals("*") && !dom.equals("?") && !dow.equals("*") && !dow.equals("?"), "both day fields");
            count(dow.matches(".*(^|[-,])[07]([-,/]|$).*"), "Sunday as 0 or 7");
            count((f[4] + dow).matches(".*[A-Z][A-Z][A-Z].*"), "names");
            count(expression.contains("/"), "steps");
            count(expression.contains(","), "lists");
            count(expression.replace("L-", "").contains("-"), "ranges");
        }

        private void count(boolean uses, String construct) {
            if (uses) {
                coverage.merge(construct, 1, Integer::sum);
            }
        }

        void show(List<String> list, String line) {
            if (list.size() < SHOWN) {
                list.add(line);
            }
        }

        void print(long millis) {
            StringBuilder out = new StringBuilder("Spring cron conformance (seed " + SEED + "):\n");
            out.append(String.format(
                    "  %d expressions: Spring accepts %d, refuses %d; AX accepts %d of Spring's, refuses %d of them;"
                            + " both refuse %d%n",
                    expressions,
                    springAccepted,
                    springRefused,
                    bothAccepted,
                    springAccepted - bothAccepted,
                    bothRefused));
            out.append(String.format(
                    "  %d next fire times compared in %d zones (%d chains ended with no next time; Spring threw %d"
                            + " times; its search looped back %d times in %d expressions), %d differ; %d accepted that"
                            + " Spring refuses; %d ms%n",
                    compared,
                    ZONES.size(),
                    none,
                    springThrew,
                    loopsBack,
                    springNotAfter.size(),
                    disagreements.size(),
                    acceptedWhatSpringRefuses.size(),
                    millis));
            out.append("  accepted expressions using: " + coverage + "\n");
            refusedBy.forEach((reason, n) -> out.append("  refused by AX (" + n + "): " + reason + "\n"));
            refusedExamples.forEach(e -> out.append("    e.g. " + e + "\n"));
            disagreements.forEach(d -> out.append("  differs: " + d + "\n"));
            acceptedWhatSpringRefuses.forEach(a -> out.append("  accepted, Spring refuses: " + a + "\n"));
            failures.forEach(f -> out.append("  failed: " + f + "\n"));
            springNotAfter.forEach((e, f) -> out.append("  Spring not after its start: '" + e + "' " + f + "\n"));
            System.out.print(out);
        }
    }
}
