package io.ax.bench.cron;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The prepared (expression, zone, start) tuples that every system computes {@code next()} for: the same seeded
 * list for all three, built the same way in the benchmark's fork and in the scenario's agreement check.
 */
final class CronWorkload {

    /** How many tuples the benchmark cycles through. */
    static final int SIZE = 4096;

    /** In America/New_York only, and half of its starts fall in the 48 hours before a daylight-saving change. */
    static final String DST_EXPRESSION = "0 30 2 * * ?";

    /**
     * Quartz syntax that all three parse. Day-of-week is given by name: Quartz and AX number Sunday 1, Spring
     * numbers it 0 or 7, so {@code 6#3} would mean Friday to two of them and Saturday to Spring.
     */
    static final List<String> EXPRESSIONS = List.of(
            "0/5 * * * * ?",
            "0 0 12 * * ?",
            "0 15 10 ? * MON-FRI",
            "0 0/30 8-18 ? * MON-FRI",
            "0 0 0 L * ?",
            "0 0 9 15W * ?",
            "0 0 10 ? * FRI#3",
            "0 0 0 1 1 ? 2030",
            DST_EXPRESSION,
            "0 0 0 29 2 ?",
            "0 0 18 ? * FRIL",
            "0 0 12 LW * ?",
            "15 10 9 ? * SAT,SUN",
            "0 0 8,12,18 * * ?");

    static final List<ZoneId> ZONES = List.of(
            ZoneId.of("UTC"), ZoneId.of("America/New_York"), ZoneId.of("Europe/Berlin"), ZoneId.of("Asia/Kolkata"));

    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final long SEED = 20_260_601L;
    private static final Instant FIRST_START =
            LocalDate.of(2024, 1, 1).atStartOfDay().toInstant(ZoneOffset.UTC);
    private static final Instant LAST_START =
            LocalDate.of(2029, 1, 1).atStartOfDay().toInstant(ZoneOffset.UTC);
    private static final long DST_WINDOW_SECONDS = 48 * 3600;

    /** One call to {@code next()}: the expression in Quartz syntax, the zone, the instant to search after. */
    record Tuple(String expression, ZoneId zone, Instant start) {}

    private CronWorkload() {}

    /** The {@link #SIZE} tuples, always the same. */
    static List<Tuple> tuples() {
        SplittableRandom random = new SplittableRandom(SEED);
        List<Instant> dstChanges = dstChanges();
        List<Tuple> tuples = new ArrayList<>(SIZE);
        for (int i = 0; i < SIZE; i++) {
            String expression = EXPRESSIONS.get(random.nextInt(EXPRESSIONS.size()));
            ZoneId zone = ZONES.get(random.nextInt(ZONES.size()));
            long startSecond = random.nextLong(FIRST_START.getEpochSecond(), LAST_START.getEpochSecond());
            if (expression.equals(DST_EXPRESSION)) {
                zone = NEW_YORK;
                if (random.nextBoolean()) {
                    Instant change = dstChanges.get(random.nextInt(dstChanges.size()));
                    startSecond = change.getEpochSecond() - random.nextLong(1, DST_WINDOW_SECONDS);
                }
            }
            tuples.add(new Tuple(expression, zone, Instant.ofEpochSecond(startSecond)));
        }
        return tuples;
    }

    /**
     * The expression for Spring, which has no year field: a seventh field is dropped, so Spring computes the
     * yearly schedule (the next 1 January rather than the one in 2030).
     */
    static String forSpring(String expression) {
        String[] fields = expression.trim().split("\\s+");
        return fields.length == 7 ? String.join(" ", List.of(fields).subList(0, 6)) : expression;
    }

    static boolean hasYear(String expression) {
        return expression.trim().split("\\s+").length == 7;
    }

    private static List<Instant> dstChanges() {
        ZoneRules rules = NEW_YORK.getRules();
        List<Instant> changes = new ArrayList<>();
        for (ZoneOffsetTransition t = rules.nextTransition(FIRST_START);
                t != null && t.getInstant().isBefore(LAST_START);
                t = rules.nextTransition(t.getInstant())) {
            changes.add(t.getInstant());
        }
        return changes;
    }
}
