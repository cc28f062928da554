package io.ax.bench.cron;

import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import io.ax.bench.Scenario;
import io.ax.bench.cron.CronWorkload.Tuple;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * "Cron next()": the throughput of computing the next fire time with AX's, Quartz's and Spring's cron expressions,
 * over the same mix of expressions, zones and start instants ({@link CronWorkload}), measured by JMH in one forked
 * JVM. Before measuring, it checks that the three agree on the fire times and reports where they do not.
 */
public final class CronScenario implements Scenario {

    private static final List<String> SYSTEMS = List.of("AX", "Quartz", "Spring");
    private static final Map<String, String> METHODS = Map.of("ax", "AX", "quartz", "Quartz", "spring", "Spring");

    @Override
    public ResultTable run(Options options) throws Exception {
        List<Tuple> tuples = CronWorkload.tuples();
        Map<String, String> rejected = rejections();
        Map<String, Integer> disagreements = disagreements(tuples, rejected);

        boolean quick = options.quick();
        int warmups = options.getInt("warmups", 3, 1);
        int iterations = options.getInt("iterations", 5, 2);
        int seconds = options.getInt("seconds", 2, 1);
        progress(
                "JMH, 1 fork, %d warm-up x %d s + %d measurement x %d s per system",
                warmups, seconds, iterations, seconds);
        org.openjdk.jmh.runner.options.Options jmh = new OptionsBuilder()
                .include(Pattern.quote(CronNextBenchmark.class.getName()) + "\\.")
                .forks(1)
                .warmupIterations(warmups)
                .warmupTime(TimeValue.seconds(seconds))
                .measurementIterations(iterations)
                .measurementTime(TimeValue.seconds(seconds))
                .mode(org.openjdk.jmh.annotations.Mode.Throughput)
                .timeUnit(TimeUnit.SECONDS)
                .shouldFailOnError(true)
                .build();
        // JMH's progress goes to stderr, so that stdout carries only the table.
        Collection<RunResult> runs =
                new Runner(jmh, OutputFormatFactory.createFormatInstance(System.err, VerboseMode.NORMAL)).run();

        Map<String, Result<?>> scores = new LinkedHashMap<>();
        for (RunResult run : runs) {
            String benchmark = run.getParams().getBenchmark();
            String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            scores.put(METHODS.get(method), run.getPrimaryResult());
        }
        return table(tuples.size(), quick, warmups, iterations, seconds, scores, rejected, disagreements);
    }

    /** Which expressions each peer rejects, as "system: expression" -> reason; the benchmark leaves them out. */
    private static Map<String, String> rejections() {
        Map<String, String> rejected = new TreeMap<>();
        for (String expression : CronWorkload.EXPRESSIONS) {
            try {
                io.ax.core.cron.CronExpression.parse(expression);
            } catch (RuntimeException e) {
                rejected.put("AX: `" + expression + "`", e.getMessage());
            }
            try {
                CronNextBenchmark.quartz(expression, CronWorkload.ZONES.get(0));
            } catch (java.text.ParseException e) {
                rejected.put("Quartz: `" + expression + "`", e.getMessage());
            }
            try {
                org.springframework.scheduling.support.CronExpression.parse(CronWorkload.forSpring(expression));
            } catch (RuntimeException e) {
                rejected.put("Spring: `" + CronWorkload.forSpring(expression) + "`", e.getMessage());
            }
        }
        rejected.forEach((what, why) -> progress("rejected by %s: %s", what, why));
        return rejected;
    }

    /**
     * For each tuple, compares AX's fire time with Quartz's and Spring's (Spring not on expressions with a year,
     * which it computes without the year).
     *
     * @return "peer: expression" -> how many tuples disagree
     */
    private static Map<String, Integer> disagreements(List<Tuple> tuples, Map<String, String> rejected)
            throws java.text.ParseException {
        progress("checking that the three agree on %d tuples", tuples.size());
        Map<String, Integer> differ = new TreeMap<>();
        for (Tuple tuple : tuples) {
            String expression = tuple.expression();
            if (rejected.keySet().stream().anyMatch(k -> k.contains("`" + expression + "`"))) {
                continue;
            }
            ZonedDateTime start = tuple.start().atZone(tuple.zone());
            Instant ax = io.ax.core.cron.CronExpression.parse(expression)
                    .next(start)
                    .map(ZonedDateTime::toInstant)
                    .orElse(null);
            Date quartzNext =
                    CronNextBenchmark.quartz(expression, tuple.zone()).getNextValidTimeAfter(Date.from(tuple.start()));
            Instant quartz = quartzNext == null ? null : quartzNext.toInstant();
            if (!Objects.equals(ax, quartz)) {
                differ.merge("Quartz: `" + expression + "`", 1, Integer::sum);
                progress(
                        "AX and Quartz differ: %s in %s after %s: AX %s, Quartz %s",
                        expression, tuple.zone(), start, ax, quartz);
            }
            if (!CronWorkload.hasYear(expression)) {
                ZonedDateTime springNext = org.springframework.scheduling.support.CronExpression.parse(expression)
                        .next(start);
                Instant spring = springNext == null ? null : springNext.toInstant();
                if (!Objects.equals(ax, spring)) {
                    differ.merge("Spring: `" + expression + "`", 1, Integer::sum);
                    progress(
                            "AX and Spring differ: %s in %s after %s: AX %s, Spring %s",
                            expression, tuple.zone(), start, ax, spring);
                }
            }
        }
        return differ;
    }

    private static ResultTable table(
            int tuples,
            boolean quick,
            int warmups,
            int iterations,
            int seconds,
            Map<String, Result<?>> scores,
            Map<String, String> rejected,
            Map<String, Integer> disagreements) {
        ResultTable table = new ResultTable("Cron next()", SYSTEMS);
        Map<String, Double> perSecond = new LinkedHashMap<>();
        Map<String, Double> nanos = new LinkedHashMap<>();
        StringBuilder errors = new StringBuilder();
        for (String system : SYSTEMS) {
            Result<?> result = scores.get(system);
            if (result == null) {
                continue;
            }
            perSecond.put(system, result.getScore());
            nanos.put(system, 1e9 / result.getScore());
            if (errors.length() > 0) {
                errors.append("; ");
            }
            double error = result.getScoreError();
            errors.append(String.format(Locale.ROOT, "%s %,.0f ± ", system, result.getScore()))
                    .append(Double.isNaN(error) ? "n/a" : String.format(Locale.ROOT, "%,.0f", error))
                    .append(" calls/s");
        }
        table.row("next() throughput", "calls/s", Better.HIGHER, perSecond);
        table.row("time per next()", "ns", Better.LOWER, nanos);
        table.note("JMH 1.37 run from the scenario (Throughput mode, 1 fork, " + warmups + " warm-up x " + seconds
                + " s + " + iterations + " measurement x " + seconds + " s per system" + (quick ? ", --quick" : "")
                + "); one operation is one next() call; ns per call is 1e9 / throughput.");
        table.note("JMH score ± error (99.9% confidence interval; n/a when JMH gives none, as with 2 iterations): "
                + errors + ".");
        table.note(tuples + " prepared (expression, zone, start) tuples (fixed seed), cycled through: "
                + CronWorkload.EXPRESSIONS.size() + " expressions, each in UTC, America/New_York, Europe/Berlin or"
                + " Asia/Kolkata, from starts uniform over 2024-2028; `" + CronWorkload.DST_EXPRESSION + "` always in"
                + " America/New_York, half of its starts in the 48 h before a DST change. Parsing is outside the"
                + " measurement. Calls: AX `next(ZonedDateTime)`, Quartz `getNextValidTimeAfter(Date)` on one"
                + " instance per (expression, zone) with `setTimeZone`, Spring `next(ZonedDateTime)`.");
        table.note("Expressions: "
                + String.join(
                        ", ",
                        CronWorkload.EXPRESSIONS.stream()
                                .map(e -> "`" + e + "`")
                                .toList())
                + ". Day-of-week by name, since Spring numbers the days differently (Sunday 0 or 7, not 1).");
        table.note("Spring has no year field: it gets `0 0 0 1 1 ?` for `0 0 0 1 1 ? 2030`, so it computes the next"
                + " 1 January rather than the one in 2030 (the same kind of work; left out of the agreement check).");
        if (rejected.isEmpty()) {
            table.note("No system rejected any expression.");
        } else {
            rejected.forEach((what, why) ->
                    table.note("Rejected, so left out for that system only: " + what + " (" + why + ")."));
        }
        if (disagreements.isEmpty()) {
            table.note("Agreement check: AX, Quartz and Spring give the same fire time for every tuple.");
        } else {
            disagreements.forEach((what, count) -> table.note(String.format(
                    Locale.ROOT, "Agreement check: AX and %s differ on %d of %d tuples.", what, count, tuples)));
        }
        return table;
    }

    private static void progress(String format, Object... args) {
        System.err.println("cron: " + String.format(Locale.ROOT, format, args));
    }
}
