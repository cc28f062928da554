package io.ax.bench.delayed;

import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.Scenario;
import io.ax.bench.db.Logging;
import io.ax.bench.db.Postgres;
import io.ax.bench.delayed.DelayedRun.Measured;
import io.ax.bench.delayed.DelayedRun.Plan;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Delayed one-shot executions at scale: AX PERSISTENT ({@code AxScheduler.scheduleAll}) beside db-scheduler on the
 * same PostgreSQL, plus AX MEMORY's heap per pending execution. Options (full / quick):
 * {@code --pending} far-future executions (1,000,000 / 100,000), {@code --burst} executions due at once (100,000 /
 * 20,000), {@code --late} executions whose lateness is measured (20,000 / 5,000) due over {@code --late-from} to
 * {@code --late-to} seconds (10-30 / 5-15), {@code --memory} MEMORY executions for the heap (1,000,000 / 200,000),
 * {@code --batch} per scheduling call (5,000), {@code --threads} (20), {@code --max-seconds} for the burst (120 /
 * 60), {@code --systems} (a comma list of the parts to run: {@code heap}, {@code AX}, {@code db-scheduler}).
 */
public final class DelayedScenario implements Scenario {

    static final String AX = "AX";
    static final String DBS = "db-scheduler";
    /** The heap rows (AX MEMORY, no database): a part of its own, so that they can be run alone. */
    private static final String HEAP = "heap";

    private static final List<String> PARTS = List.of(HEAP, AX, DBS);
    private static final long SEED = 42;
    private static final String PAYLOAD = "0123456789abcdef";
    private static final Duration PENDING_FROM = Duration.ofHours(1);
    private static final Duration PENDING_SPAN = Duration.ofHours(24);
    private static final Duration MIN_BURST_LEAD = Duration.ofSeconds(5);

    @Override
    public ResultTable run(Options options) throws Exception {
        boolean axInfoLog = Logging.configure(options);
        int pending = options.getInt("pending", 1_000_000, 100_000);
        int burst = options.getInt("burst", 100_000, 20_000);
        int late = options.getInt("late", 20_000, 5_000);
        int lateFrom = options.getInt("late-from", 10, 5);
        int lateTo = options.getInt("late-to", 30, 15);
        int memory = options.getInt("memory", 1_000_000, 200_000);
        int batch = options.getInt("batch", 5_000, 5_000);
        int threads = options.getInt("threads", 20, 20);
        int maxSeconds = options.getInt("max-seconds", 120, 60);
        List<String> chosen =
                List.of(options.get("systems", String.join(",", PARTS)).split(","));
        Postgres pg = new Postgres(options);

        MemoryHeap.Result bare = null;
        MemoryHeap.Result withPayload = null;
        if (chosen.contains(HEAP)) {
            DueTimes memoryTimes = DueTimes.spread(memory, PENDING_FROM, PENDING_SPAN, SEED);
            bare = MemoryHeap.measure(memory, batch, memoryTimes, null);
            log("AX MEMORY: %.1f bytes per pending execution without payload", bare.bytesPerTask());
            withPayload = MemoryHeap.measure(memory, batch, memoryTimes, PAYLOAD);
            log("AX MEMORY: %.1f bytes per pending execution with a 16-byte payload", withPayload.bytesPerTask());
        }

        Plan plan = new Plan(
                DueTimes.spread(pending, PENDING_FROM, PENDING_SPAN, SEED),
                DueTimes.spread(late, Duration.ofSeconds(lateFrom), Duration.ofSeconds(lateTo - lateFrom), SEED),
                Duration.ofSeconds(lateFrom),
                Duration.ofSeconds(lateTo),
                burst,
                MIN_BURST_LEAD,
                batch,
                threads,
                maxSeconds,
                memory);
        DelayedRun run = new DelayedRun(plan, options, pg);
        Map<String, Measured> results = new LinkedHashMap<>();
        if (chosen.contains(AX)) {
            results.put(AX, run.measure(new AxDelayed(pg)));
        }
        if (chosen.contains(DBS)) {
            results.put(DBS, run.measure(new DbSchedulerDelayed(pg)));
        }
        return DelayedTable.of(results, bare, withPayload, plan, axInfoLog);
    }

    static Map<String, Double> values(Map<String, Measured> results, Function<Measured, Double> metric) {
        Map<String, Double> out = new LinkedHashMap<>();
        results.forEach((k, v) -> out.put(k, metric.apply(v)));
        return out;
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[delayed] " + format + "%n", args);
    }
}
