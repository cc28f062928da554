package io.ax.bench.burst;

import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import io.ax.bench.Scenario;
import io.ax.bench.db.Logging;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import io.ax.bench.db.ServerCpu;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Durable burst: {@code --tasks} one-shot executions (100,000; quick 20,000), all due at once, drained by no-op
 * handlers on {@code --threads} workers (20): AX with its JDBC store and with its in-memory store, db-scheduler in its
 * two polling modes, and clustered Quartz. Each system gets at most {@code --max-seconds} (240; quick 40) to drain;
 * one that does not finish is reported with the rate it reached. {@code --systems} picks columns (a comma list).
 */
public final class BurstScenario implements Scenario {

    private static final String AX = "AX (MEMORY)";
    private static final String AX_PERSISTENT = "AX PERSISTENT";
    private static final String DBS_LOCK = "db-scheduler lock-and-fetch";
    private static final String DBS_FETCH = "db-scheduler fetch";
    private static final String QUARTZ = "Quartz clustered";
    private static final List<String> SYSTEMS = List.of(AX_PERSISTENT, AX, DBS_LOCK, DBS_FETCH, QUARTZ);

    private record Result(
            int tasks, long executed, double seconds, double prepareSeconds, boolean usesDatabase, double serverCpu) {

        boolean finished() {
            return executed >= tasks;
        }

        double perSecond() {
            return executed / seconds;
        }
    }

    @Override
    public ResultTable run(Options options) throws Exception {
        boolean axInfoLog = Logging.configure(options);
        int tasks = options.getInt("tasks", 100_000, 20_000);
        int threads = options.getInt("threads", 20, 20);
        int maxSeconds = options.getInt("max-seconds", 240, 40);
        List<String> chosen =
                List.of(options.get("systems", String.join(",", SYSTEMS)).split(","));
        Postgres pg = new Postgres(options);

        Map<String, Function<Postgres, BurstSystem>> factories = new LinkedHashMap<>();
        factories.put(AX, p -> new AxBurst());
        factories.put(AX_PERSISTENT, AxPersistentBurst::new);
        factories.put(DBS_LOCK, p -> new DbSchedulerBurst(p, true));
        factories.put(DBS_FETCH, p -> new DbSchedulerBurst(p, false));
        factories.put(QUARTZ, QuartzBurst::new);

        Map<String, Result> results = new LinkedHashMap<>();
        for (String name : SYSTEMS) {
            if (chosen.contains(name)) {
                results.put(name, measure(factories.get(name).apply(pg), tasks, threads, maxSeconds));
            }
        }

        ResultTable t = new ResultTable("Durable burst", SYSTEMS);
        t.row("executions/s", "1/s", Better.HIGHER, values(results, Result::perSecond));
        t.row(
                "time to drain " + String.format(Locale.ROOT, "%,d", tasks),
                "s",
                Better.LOWER,
                values(results, Result::seconds));
        t.row(
                "PostgreSQL server CPU while draining",
                "s",
                Better.LOWER,
                values(results, r -> r.usesDatabase() ? r.serverCpu() : Double.NaN));
        t.row(
                "inserting the burst before start (not in the rate)",
                "s",
                Better.LOWER,
                values(results, BurstScenario::insertSeconds));
        results.forEach((name, r) -> {
            if (!r.finished()) {
                t.note(String.format(
                        Locale.ROOT,
                        "%s did not finish within %d s: %,d of %,d executed; its rate is over that time.",
                        name,
                        maxSeconds,
                        r.executed(),
                        r.tasks()));
            }
        });
        t.note(String.format(
                Locale.ROOT,
                "%,d one-shot no-op executions all due at once, %d worker threads each; the peers on the same"
                        + " PostgreSQL, one system at a time, each with its own freshly created schema.",
                tasks,
                threads));
        t.note("AX PERSISTENT: its JDBC store on the same PostgreSQL (schema bench_ax), audit log on, pool of 4"
                + " connections. Like the peers it writes the burst before it starts (SCHEDULED instances of one"
                + " concurrent task, due in the past; the \"inserting\" row); its start-up recovery finds them due;"
                + " its time runs from start until every instance is SUCCESS in the database (checked every 20 ms)."
                + " Each instance leaves 4 audit rows (CREATED, SCHEDULED, RUNNING, SUCCESS).");
        t.note("AX (MEMORY): the in-memory store; the burst is one on-demand task (concurrent=true) called with"
                + " triggerNow() in a loop: the triggering is inside its measured time, from the first triggerNow() to"
                + " the last SUCCESS.");
        t.note("Peers: every execution is a row inserted before the scheduler starts (the \"inserting\" row; not in"
                + " the rate), due one second ago. Their time runs from scheduler start until every handler has run"
                + " and the rows are gone (db-scheduler deletes a one-time task's row on completion; Quartz its"
                + " trigger and fired-trigger rows), checked every 20 ms.");
        t.note(String.format(
                Locale.ROOT,
                "Configuration. AX: pool 'default' = %d threads with queue %,d (the whole burst; no rejections),"
                        + " InMemoryInstanceStore(%,d), %s. db-scheduler 16.7.1: OneTimeTask, threads %d,"
                        + " pollingInterval %d ms, lock-and-fetch = pollUsingLockAndFetch(0.5, 1.0); fetch = its"
                        + " default fetch-and-lock-on-execute (0.5, 3.0); pool of %d connections. Quartz 2.5.2:"
                        + " JobStoreTX + PostgreSQLDelegate, isClustered=true, one job + one-shot SimpleTrigger per"
                        + " execution, threadCount %d, batchTriggerAcquisitionMaxCount %d,"
                        + " acquireTriggersWithinLock=true, misfireThreshold 1 h (so the backlog drains as ordinary"
                        + " fires, not through the misfire handler), pool of %d connections.",
                threads,
                tasks,
                AxBurst.RETENTION,
                axInfoLog ? "logger io.ax at INFO (--ax-info-log=true)" : "logger io.ax at WARN",
                threads,
                DbSchedulerBurst.POLLING_INTERVAL.toMillis(),
                threads + 4,
                threads,
                threads,
                threads + 4));
        return t;
    }

    private static Result measure(BurstSystem system, int tasks, int threads, int maxSeconds) throws Exception {
        Probe probe = new Probe();
        log("%s: preparing %,d executions", system.name(), tasks);
        long prepareStart = System.nanoTime();
        system.prepare(tasks, threads, probe);
        double prepare = (System.nanoTime() - prepareStart) / 1e9;
        log("%s: prepared in %.1f s", system.name(), prepare);
        try {
            ServerCpu serverCpu = ServerCpu.start();
            long t0 = System.nanoTime();
            long deadline = t0 + maxSeconds * 1_000_000_000L;
            system.start();
            long nextLog = System.nanoTime() + 5_000_000_000L;
            long end;
            while (true) {
                long now = System.nanoTime();
                if (probe.executions() >= tasks && system.drained()) {
                    end = now;
                    break;
                }
                if (now > deadline) {
                    end = now;
                    log("%s: giving up after %d s", system.name(), maxSeconds);
                    break;
                }
                if (now > nextLog) {
                    log(
                            "%s: %,d of %,d executed after %.0f s",
                            system.name(), probe.executions(), tasks, (now - t0) / 1e9);
                    nextLog += 5_000_000_000L;
                }
                Thread.sleep(20);
            }
            Result r = new Result(
                    tasks,
                    Math.min(tasks, probe.executions()),
                    (end - t0) / 1e9,
                    prepare,
                    !(system instanceof AxBurst),
                    serverCpu.seconds());
            log(
                    "%s: %,d executed in %.2f s = %.0f/s (PostgreSQL CPU %.2f s)",
                    system.name(), r.executed(), r.seconds(), r.perSecond(), r.serverCpu());
            return r;
        } finally {
            long stopStart = System.nanoTime();
            system.tearDown();
            log("%s: stopped and cleaned in %.1f s", system.name(), (System.nanoTime() - stopStart) / 1e9);
        }
    }

    /** AX (MEMORY) inserts nothing before it starts (it triggers inside its measured time): not measured. */
    private static double insertSeconds(Result r) {
        return r.usesDatabase() ? r.prepareSeconds() : Double.NaN;
    }

    private static Map<String, Double> values(Map<String, Result> r, Function<Result, Double> metric) {
        Map<String, Double> out = new LinkedHashMap<>();
        r.forEach((k, v) -> out.put(k, metric.apply(v)));
        return out;
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[burst] " + format + "%n", args);
    }
}
