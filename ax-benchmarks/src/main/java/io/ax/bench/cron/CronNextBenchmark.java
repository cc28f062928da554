package io.ax.bench.cron;

import io.ax.bench.cron.CronWorkload.Tuple;
import java.text.ParseException;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One {@code next()} call per operation, cycling through the {@link CronWorkload} tuples; run by {@link
 * CronScenario} through the JMH runner. Parsing happens in setup; a tuple whose expression a system rejects is left
 * out of that system's cycle (the scenario reports it).
 */
public class CronNextBenchmark {

    /** AX: {@code CronExpression.next(ZonedDateTime)}. */
    @State(Scope.Thread)
    public static class AxState {
        io.ax.core.cron.CronExpression[] expressions;
        ZonedDateTime[] starts;
        int cursor;

        @Setup
        public void prepare() {
            List<io.ax.core.cron.CronExpression> parsed = new ArrayList<>();
            List<ZonedDateTime> from = new ArrayList<>();
            Map<String, io.ax.core.cron.CronExpression> byText = new HashMap<>();
            for (Tuple tuple : CronWorkload.tuples()) {
                try {
                    parsed.add(byText.computeIfAbsent(tuple.expression(), io.ax.core.cron.CronExpression::parse));
                    from.add(tuple.start().atZone(tuple.zone()));
                } catch (RuntimeException rejected) {
                    // left out; CronScenario reports it
                }
            }
            expressions = parsed.toArray(io.ax.core.cron.CronExpression[]::new);
            starts = from.toArray(ZonedDateTime[]::new);
        }
    }

    /** Quartz: {@code getNextValidTimeAfter(Date)} on one instance per (expression, zone), its zone set. */
    @State(Scope.Thread)
    public static class QuartzState {
        org.quartz.CronExpression[] expressions;
        Date[] starts;
        int cursor;

        @Setup
        public void prepare() {
            List<org.quartz.CronExpression> parsed = new ArrayList<>();
            List<Date> from = new ArrayList<>();
            Map<String, org.quartz.CronExpression> byTextAndZone = new HashMap<>();
            for (Tuple tuple : CronWorkload.tuples()) {
                org.quartz.CronExpression expression = byTextAndZone.get(tuple.expression() + "@" + tuple.zone());
                if (expression == null) {
                    try {
                        expression = quartz(tuple.expression(), tuple.zone());
                    } catch (ParseException rejected) {
                        continue; // left out; CronScenario reports it
                    }
                    byTextAndZone.put(tuple.expression() + "@" + tuple.zone(), expression);
                }
                parsed.add(expression);
                from.add(Date.from(tuple.start()));
            }
            expressions = parsed.toArray(org.quartz.CronExpression[]::new);
            starts = from.toArray(Date[]::new);
        }
    }

    /** Spring: {@code CronExpression.next(ZonedDateTime)}, with the year field dropped (Spring has none). */
    @State(Scope.Thread)
    public static class SpringState {
        org.springframework.scheduling.support.CronExpression[] expressions;
        ZonedDateTime[] starts;
        int cursor;

        @Setup
        public void prepare() {
            List<org.springframework.scheduling.support.CronExpression> parsed = new ArrayList<>();
            List<ZonedDateTime> from = new ArrayList<>();
            Map<String, org.springframework.scheduling.support.CronExpression> byText = new HashMap<>();
            for (Tuple tuple : CronWorkload.tuples()) {
                try {
                    parsed.add(byText.computeIfAbsent(
                            CronWorkload.forSpring(tuple.expression()),
                            org.springframework.scheduling.support.CronExpression::parse));
                    from.add(tuple.start().atZone(tuple.zone()));
                } catch (RuntimeException rejected) {
                    // left out; CronScenario reports it
                }
            }
            expressions = parsed.toArray(org.springframework.scheduling.support.CronExpression[]::new);
            starts = from.toArray(ZonedDateTime[]::new);
        }
    }

    static org.quartz.CronExpression quartz(String expression, ZoneId zone) throws ParseException {
        org.quartz.CronExpression parsed = new org.quartz.CronExpression(expression);
        parsed.setTimeZone(TimeZone.getTimeZone(zone));
        return parsed;
    }

    @Benchmark
    public Optional<ZonedDateTime> ax(AxState state) {
        int i = state.cursor;
        state.cursor = i + 1 == state.starts.length ? 0 : i + 1;
        return state.expressions[i].next(state.starts[i]);
    }

    @Benchmark
    public Date quartz(QuartzState state) {
        int i = state.cursor;
        state.cursor = i + 1 == state.starts.length ? 0 : i + 1;
        return state.expressions[i].getNextValidTimeAfter(state.starts[i]);
    }

    @Benchmark
    public ZonedDateTime spring(SpringState state) {
        int i = state.cursor;
        state.cursor = i + 1 == state.starts.length ? 0 : i + 1;
        return state.expressions[i].next(state.starts[i]);
    }
}
