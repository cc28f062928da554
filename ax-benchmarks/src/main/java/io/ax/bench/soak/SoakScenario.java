package io.ax.bench.soak;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.Scenario;
import io.ax.bench.db.Logging;
import io.ax.core.AxTask;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.EngineObserver;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.engine.RetentionSettings;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.test.net.FaultProxy;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * Soak (issue 11, not part of CI): the sample app's kind of workload on AX's JDBC store on PostgreSQL for
 * {@code --minutes}, every connection of the engine through a {@link FaultProxy} that blackholes for
 * {@code --outage-for} every {@code --outage-every}. One line per minute (heap, threads, table sizes, fires,
 * lateness, outage, stuck instances, duplicates); at the end a summary and the invariants (nothing run twice,
 * nothing lost, every task firing again after the last outage, nothing stuck), any failure making the runner exit 1.
 * Options: see {@link SoakSettings}; {@code --jdbc-url} as for the other database scenarios.
 */
public final class SoakScenario implements Scenario {

    /** The engine's queue for the default pool: far above what this workload has due at once. */
    private static final int QUEUE = 2_000;

    @Override
    public ResultTable run(Options options) throws Exception {
        // a soak is read afterwards against its minute lines: every log line carries its time
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
        System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
        Logging.configure(options);
        SoakSettings s = SoakSettings.from(options);
        Workload workload = new Workload(s.tasks());
        Duration longest =
                workload.periods().values().stream().max(Duration::compareTo).orElseThrow();
        List<Outages.Window> plan =
                Outages.plan(s.outageEvery(), s.outageFor(), s.run(), longest.plus(s.recoveryBound()));
        log(
                "%d minutes; %s; %d delayed executions a second; outages at %s",
                s.minutes(),
                workload.describe(),
                s.delayedPerSecond(),
                plan.stream().map(w -> w.start() + " for " + w.length()).toList());
        URI target = EnginePool.target(options);
        try (SoakDb db = new SoakDb(options, s.prefix());
                FaultProxy proxy = FaultProxy.start(target.getHost(), target.getPort() < 0 ? 5432 : target.getPort())) {
            db.recreateTables();
            DelayedLedger ledger = new DelayedLedger();
            Runs runs = new Runs(new Recovery(System.currentTimeMillis(), workload.periods()), workload.periods());
            List<Recovery> recoveries = new CopyOnWriteArrayList<>();
            RetentionCount deleted = new RetentionCount();
            try (HikariDataSource pool = EnginePool.open(options, proxy.port())) {
                AxEngine engine = AxEngine.builder()
                        .store(new JdbcInstanceStore(
                                pool, s.prefix(), java.time.Duration.ofSeconds(EnginePool.SOCKET_TIMEOUT)))
                        .router(new ExecutorRouter(List.of(new SoakExecutor(runs, ledger))))
                        .nodeId("soak")
                        .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(s.threads(), QUEUE)))
                        .retention(retention(s))
                        .observer(deleted)
                        .build();
                workload.register(engine);
                engine.start();
                Outages outages = new Outages(proxy, plan, end -> {
                    Recovery next = new Recovery(end.toEpochMilli(), workload.periods());
                    recoveries.add(next);
                    runs.outageEnded(next);
                });
                DelayedStream stream = new DelayedStream(engine, ledger, s.delayedPerSecond(), s.maxDelay());
                SoakRun run = new SoakRun(s, engine, db, runs, outages);
                long t0 = System.nanoTime();
                Instant start = Instant.now();
                stream.start();
                outages.start(t0);
                try {
                    run.run(t0, start);
                } finally {
                    stream.close();
                    outages.close();
                }
                Instant end = Instant.now();
                SoakReport.End atEnd = new SoakReport.End(
                        db.stuck(s.stuckAfter()),
                        ledger.lostBefore(end.minus(s.recoveryBound()).toEpochMilli()),
                        ledger.dueBefore(end.minus(s.recoveryBound()).toEpochMilli()),
                        runs.recovery().late(s.recoveryBound(), end.toEpochMilli()),
                        engine.status().storeOutage().map(Object::toString).orElse(null),
                        stream.lastError());
                long stopStart = System.nanoTime();
                engine.stop();
                log("engine stopped in %.1f s", (System.nanoTime() - stopStart) / 1e9);
                return new SoakReport(
                                s, workload, run, runs, ledger, outages.done(), recoveries, deleted.count(), atEnd)
                        .table(db.endChecks(), db.sizes());
            }
        }
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);

    private static Object[] prepend(Object first, Object[] rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    /** Looks for expired history twice a minute, so a run of minutes sees it work. */
    private static RetentionSettings retention(SoakSettings s) {
        Duration finished = s.retention() == null ? RetentionSettings.defaults().finished() : s.retention();
        return new RetentionSettings(s.retention() != null, finished, s.retentionDead(), Duration.ofSeconds(30), 500);
    }

    /** Counts what the leader's retention deleted, as the {@code ax.retention.deleted} meter does. */
    private static final class RetentionCount implements EngineObserver {

        private final LongAdder deleted = new LongAdder();

        @Override
        public void retentionDeleted(int count) {
            deleted.add(count);
        }

        long count() {
            return deleted.sum();
        }
    }

    static void log(String format, Object... args) {
        System.err.printf(
                Locale.ROOT,
                "%s [soak] " + format + "%n",
                prepend(LocalTime.now().format(TIME), args));
    }
}
