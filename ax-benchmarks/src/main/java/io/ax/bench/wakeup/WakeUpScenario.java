package io.ax.bench.wakeup;

import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.Scenario;
import io.ax.bench.db.Logging;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How soon the owner of a partition runs work another node created in it, by database and wake-up kind:
 * {@code --nodes} AX engines (2) in this JVM over one database, each with its own store and pool, partitioned
 * ownership (the default), split between them before the clock starts. The first node schedules {@code --rate}
 * delayed one-shot instances a second (20), due at once, through its public API; each instance's latency is its
 * handler's start minus the schedule call, told apart by whether another node ran it (the wake-up path) or the
 * scheduling node itself (the local baseline). One round per database and kind: PostgreSQL with {@code LISTEN/NOTIFY},
 * Redis pub/sub and polling only; MariaDB and H2 with Redis and polling only. Every round also checks that each
 * instance ran exactly once. Options: see {@link WakeUpSettings} and {@link Database}.
 */
public final class WakeUpScenario implements Scenario {

    @Override
    public ResultTable run(Options options) throws Exception {
        boolean axInfoLog = Logging.configure(options);
        System.setProperty("org.slf4j.simpleLogger.log.org.flywaydb", "warn");
        WakeUpSettings s = WakeUpSettings.of(options);
        List<WakeUpRound.Result> results = new ArrayList<>();
        WakeUpRound round = new WakeUpRound(s);
        for (WakeUpSettings.Round r : s.rounds()) {
            log("%s: round %d of %d", r.column(), results.size() + 1, s.rounds().size());
            results.add(round.run(r));
        }
        return WakeUpTable.of(s, results, axInfoLog);
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[wakeup] " + format + "%n", args);
    }
}
