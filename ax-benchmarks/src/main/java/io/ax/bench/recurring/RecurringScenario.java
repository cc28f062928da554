package io.ax.bench.recurring;

import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import io.ax.bench.Scenario;
import io.ax.bench.db.Logging;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import io.ax.bench.db.ServerCpu;
import io.ax.bench.db.ThreadCpu;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * Recurring load in one JVM: 10,000 tasks firing every second, then a mix of 20,000 (8,000 every second, 6,000
 * every minute, 6,000 every hour), each for a fixed time, on AX, db-scheduler and Quartz in turn, with the same
 * worker count, the peers on the same PostgreSQL. Options: {@code --seconds} (60, quick 10), {@code --warmup} (5, quick 3),
 * {@code --threads} (20), {@code --tasks} (10000), {@code --mix-second/--mix-minute/--mix-hour} (8000/6000/6000),
 * {@code --dbs-lower/--dbs-upper} (db-scheduler lock-and-fetch limits, 0.5/1.0), {@code --align} (whether the mix
 * waits so a minute boundary falls inside its window; full runs true, quick false), {@code --systems} (a comma
 * list of columns to run; default all), {@code --ax-queue} (AX's pool queue; default big enough for every task).
 */
public final class RecurringScenario implements Scenario {

    private static final List<String> SYSTEMS = List.of("AX", "AX PERSISTENT", "db-scheduler", "Quartz");

    private record Result(
            long fires,
            double seconds,
            long expected,
            Histogram lateness,
            long early,
            double cpu,
            double serverCpu,
            String threads) {

        double firesPerSecond() {
            return fires / seconds;
        }

        double expectedPerSecond() {
            return expected / seconds;
        }

        double achievedPercent() {
            return expected == 0 ? Double.NaN : 100.0 * fires / expected;
        }

        double cpuMillisPerThousandFires() {
            return fires == 0 ? Double.NaN : cpu * 1e6 / fires;
        }

        double latenessMillis(double percentile) {
            return lateness.getTotalCount() == 0 ? Double.NaN : lateness.getValueAtPercentile(percentile) / 1000.0;
        }
    }

    @Override
    public ResultTable run(Options options) throws Exception {
        boolean axInfoLog = Logging.configure(options);
        int seconds = options.getInt("seconds", 60, 10);
        int warmup = options.getInt("warmup", 5, 3);
        if (warmup >= seconds) {
            throw new IllegalArgumentException("--warmup must be shorter than --seconds");
        }
        int threads = options.getInt("threads", 20, 20);
        int tasks = options.getInt("tasks", 10_000, 10_000);
        Load everySecond = Load.everySecond(tasks);
        Load mix = Load.mix(
                options.getInt("mix-second", 8_000, 8_000),
                options.getInt("mix-minute", 6_000, 6_000),
                options.getInt("mix-hour", 6_000, 6_000));
        boolean align = Boolean.parseBoolean(options.get("align", Boolean.toString(!options.quick())));
        double lower = Double.parseDouble(options.get("dbs-lower", "0.5"));
        double upper = Double.parseDouble(options.get("dbs-upper", "1.0"));
        int axQueue = options.getInt("ax-queue", 0, 0);
        List<String> chosen =
                List.of(options.get("systems", String.join(",", SYSTEMS)).split(","));
        Postgres pg = new Postgres(options);

        Map<String, Function<Postgres, RecurringSystem>> factories = new LinkedHashMap<>();
        factories.put("AX", p -> new AxRecurring(axQueue, null));
        factories.put("AX PERSISTENT", p -> new AxRecurring(axQueue, p));
        factories.put("db-scheduler", p -> new DbSchedulerRecurring(p, lower, upper));
        factories.put("Quartz", QuartzRecurring::new);

        Map<String, Map<String, Result>> results = new LinkedHashMap<>();
        for (Load load : List.of(everySecond, mix)) {
            Map<String, Result> perSystem = new LinkedHashMap<>();
            for (String name : SYSTEMS) {
                if (chosen.contains(name)) {
                    RecurringSystem system = factories.get(name).apply(pg);
                    perSystem.put(name, measure(system, load, threads, seconds, warmup, align));
                }
            }
            results.put(load.label(), perSystem);
        }
        return table(results, everySecond, mix, threads, seconds, warmup, lower, upper, align, axInfoLog, axQueue);
    }

    private static Result measure(
            RecurringSystem system, Load load, int threads, int seconds, int warmup, boolean align) throws Exception {
        Probe probe = new Probe();
        log("%s %s: setting up %,d tasks", system.name(), load.label(), load.tasks());
        long setUpStart = System.nanoTime();
        system.setUp(load, threads, probe);
        log("%s %s: set up in %.1f s", system.name(), load.label(), (System.nanoTime() - setUpStart) / 1e9);
        if (align && load.hasMinuteGroup()) {
            waitSoMinuteFallsInWindow(seconds, warmup);
        }
        try {
            system.start();
            long t0 = System.nanoTime();
            sleepUntil(t0 + warmup * 1_000_000_000L);
            probe.cut();
            Instant from = Instant.now();
            long windowStart = System.nanoTime();
            long firesBefore = probe.executions();
            long earlyBefore = probe.early();
            ThreadCpu cpu = ThreadCpu.start(system::owns);
            ServerCpu serverCpu = ServerCpu.start();
            for (int s = warmup + 5; s < seconds; s += 5) {
                sleepUntil(t0 + s * 1_000_000_000L);
                log(
                        "%s %s: %d s, %,d fires in the window",
                        system.name(), load.label(), s, probe.executions() - firesBefore);
            }
            sleepUntil(t0 + seconds * 1_000_000_000L);
            Histogram lateness = probe.cut();
            double cpuSeconds = cpu.seconds();
            double serverSeconds = serverCpu.seconds();
            double window = (System.nanoTime() - windowStart) / 1e9;
            Instant to = Instant.now();
            long fires = lateness.getTotalCount();
            Result r = new Result(
                    fires,
                    window,
                    load.expectedFires(from, to),
                    lateness,
                    probe.early() - earlyBefore,
                    cpuSeconds,
                    serverSeconds,
                    cpu.matchingNames());
            log(
                    "%s %s: %.0f fires/s (expected %.0f), lateness p50 %.1f ms p99 %.1f ms max %.1f ms,"
                            + " CPU %.2f s (threads: %s), PostgreSQL CPU %.2f s, %d started before their fire time",
                    system.name(),
                    load.label(),
                    r.firesPerSecond(),
                    r.expectedPerSecond(),
                    r.latenessMillis(50),
                    r.latenessMillis(99),
                    lateness.getTotalCount() == 0 ? Double.NaN : lateness.getMaxValue() / 1000.0,
                    cpuSeconds,
                    r.threads(),
                    serverSeconds,
                    r.early());
            return r;
        } finally {
            long stopStart = System.nanoTime();
            system.tearDown();
            log(
                    "%s %s: stopped and cleaned in %.1f s",
                    system.name(), load.label(), (System.nanoTime() - stopStart) / 1e9);
        }
    }

    /**
     * The mix has 6,000 tasks due on each minute: a window without a minute boundary would leave that burst out. So
     * the run starts when the next boundary will fall in the middle of the measured window.
     */
    private static void waitSoMinuteFallsInWindow(int seconds, int warmup) throws InterruptedException {
        long offset = Math.max(warmup + 1, Math.min(seconds - 1, (warmup + seconds) / 2));
        Instant now = Instant.now();
        long untilBoundary = 60 - now.getEpochSecond() % 60;
        if (untilBoundary > warmup && untilBoundary <= seconds - 1) {
            return;
        }
        long wait = (untilBoundary - offset + 60) % 60;
        log("waiting %d s so a minute boundary falls inside the measured window", wait);
        Thread.sleep(wait * 1000L);
    }

    private static ResultTable table(
            Map<String, Map<String, Result>> results,
            Load everySecond,
            Load mix,
            int threads,
            int seconds,
            int warmup,
            double lower,
            double upper,
            boolean align,
            boolean axInfoLog,
            int axQueue) {
        ResultTable t = new ResultTable("Recurring load in one JVM", SYSTEMS);
        List<String> dueNotes = new java.util.ArrayList<>();
        for (Map.Entry<String, Map<String, Result>> e : results.entrySet()) {
            String l = e.getKey();
            Map<String, Result> r = e.getValue();
            t.row(l + " fires/s", "1/s", Better.HIGHER, values(r, Result::firesPerSecond));
            t.row(l + " fires achieved of due", "%", Better.HIGHER, values(r, Result::achievedPercent));
            t.row(l + " lateness p50", "ms", Better.LOWER, values(r, x -> x.latenessMillis(50)));
            t.row(l + " lateness p99", "ms", Better.LOWER, values(r, x -> x.latenessMillis(99)));
            t.row(l + " scheduler CPU", "s", Better.LOWER, values(r, Result::cpu));
            t.row(
                    l + " scheduler CPU per 1,000 fires",
                    "ms",
                    Better.LOWER,
                    values(r, Result::cpuMillisPerThousandFires));
            // AX (MEMORY) opens no connection: whatever the server did meanwhile was not AX's
            t.row(
                    l + " PostgreSQL server CPU",
                    "s",
                    Better.LOWER,
                    values(r, x -> x == r.get("AX") ? Double.NaN : x.serverCpu()));
            StringBuilder due =
                    new StringBuilder(l + ": fires due per second in each system's window (the" + " expected rate):");
            r.forEach((name, x) -> due.append(String.format(Locale.ROOT, " %s %,.0f;", name, x.expectedPerSecond())));
            dueNotes.add(due.substring(0, due.length() - 1) + ".");
        }
        Result sample =
                results.values().iterator().next().values().stream().findFirst().orElse(null);
        t.note(String.format(
                Locale.ROOT,
                "Loads: %s = %,d tasks each due every second; mix = %s. All fire on second/minute/hour boundaries"
                        + " (cron). Each system runs alone, %d s per load; the first %d s are warm-up and left out;"
                        + " the window is about %.0f s.",
                everySecond.label(),
                everySecond.tasks(),
                describe(mix),
                seconds,
                warmup,
                sample == null ? Double.NaN : sample.seconds()));
        dueNotes.forEach(t::note);
        t.note("Column AX keeps its instances in its in-memory store (MEMORY: lost on a crash); AX PERSISTENT writes"
                + " every instance and every state change with its audit row to the same PostgreSQL as the peers"
                + " (JdbcInstanceStore, schema bench_ax): the like-for-like durable comparison.");
        t.note("fires/s = executions that started in the window / window length; achieved of due = those"
                + " executions / the fires due in that system's own window (the mix's depends on whether a minute boundary falls inside it"
                + (align ? "; the run was aligned so one does)." : "; this run was not aligned, --align=true)."));
        t.note("Lateness = handler start - scheduled fire time (AX: AxContext.scheduledTime(); db-scheduler:"
                + " Execution.executionTime; Quartz: getScheduledFireTime()), recorded for executions that started in"
                + " the window; a system that cannot keep up shows a growing backlog here.");
        t.note("Scheduler CPU = ThreadMXBean CPU time over the window of the threads named: AX `ax-*` (ax-wheel,"
                + " ax-dispatch-1, ax-writer, ax-default-<n>); db-scheduler `db-scheduler-*` (workers, execute-due poller,"
                + " housekeeper); Quartz `*AxBenchQuartz*` (AxBenchQuartz_Worker-<n>,"
                + " AxBenchQuartz_QuartzSchedulerThread, ClusterManager, MisfireHandler). HikariCP's own threads and"
                + " the JVM (GC, JIT) are not counted. PostgreSQL server CPU = utime+stime of all local `postgres`"
                + " processes over the window, from /proc (includes any other client of that server); \"—\" for AX (MEMORY), which"
                + " opens no connection. CPU per 1,000 fires compares the cost of a fire at whatever rate each"
                + " system reached.");
        t.note(String.format(
                Locale.ROOT,
                "Configuration, same %d worker threads each. AX: CronTrigger per cadence shared by its tasks (one"
                        + " wheel entry per fire time), concurrent=false (default), pool"
                        + " 'default' = %d threads with queue %s,"
                        + " InMemoryInstanceStore(%,d) (AX) or JdbcInstanceStore with a pool of 4 connections"
                        + " (AX PERSISTENT), %s."
                        + " db-scheduler 16.7.1: one RecurringTask per cadence with Schedules.cron(...) in UTC and one"
                        + " task instance (row) per task, pollUsingLockAndFetch(%.1f, %.1f), pollingInterval %d ms"
                        + " (default 10 s), pool of %d connections. Quartz 2.5.2: JobStoreTX + PostgreSQLDelegate,"
                        + " isClustered=true, one job + CronTrigger per task (concurrent execution allowed, the"
                        + " Quartz default), threadCount %d, batchTriggerAcquisitionMaxCount %d (Quartz caps a batch"
                        + " at the free workers anyway), acquireTriggersWithinLock=true, misfireThreshold 60 s,"
                        + " pool of %d connections.",
                threads,
                threads,
                axQueue > 0
                        ? String.format(Locale.ROOT, "%,d (--ax-queue)", axQueue)
                        : "max(20,000, tasks) (holds the largest burst)",
                AxRecurring.RETENTION,
                axInfoLog
                        ? "logger io.ax at INFO (--ax-info-log=true: one line per finished instance)"
                        : "logger io.ax at WARN (its one INFO line per finished instance off)",
                lower,
                upper,
                DbSchedulerRecurring.POLLING_INTERVAL.toMillis(),
                threads + 4,
                threads,
                threads,
                threads + 4));
        return t;
    }

    private static String describe(Load load) {
        StringBuilder out = new StringBuilder();
        for (Load.Group g : load.groups()) {
            if (!out.isEmpty()) {
                out.append(" + ");
            }
            out.append(String.format(
                    Locale.ROOT, "%,d every %s", g.count(), g.cadence().name().toLowerCase(Locale.ROOT)));
        }
        return out.toString();
    }

    private static Map<String, Double> values(Map<String, Result> r, Function<Result, Double> metric) {
        Map<String, Double> out = new LinkedHashMap<>();
        r.forEach((k, v) -> out.put(k, metric.apply(v)));
        return out;
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[recurring] " + format + "%n", args);
    }
}
