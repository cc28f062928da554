package io.ax.bench.failover;

import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.Scenario;
import io.ax.bench.db.Logging;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What a PostgreSQL failover costs AX, by replication mode: rounds alternate the modes (synchronous; asynchronous
 * with the standby caught up; asynchronous with the standby cut off a few seconds before the primary dies), each on a
 * private primary and standby (the machine's PostgreSQL binaries) with {@code --nodes} engines in this JVM on pgjdbc's
 * multi-host URL. Per mode: the time from the primary's kill to handlers running again (the first start after the
 * promotion, which needs a claim on the new primary), when a node reported a loss and was DOWN, and what the failover
 * cost the work (acknowledged delayed instances never started, work run twice and whether a node listed it, a series
 * stopped, rows left RUNNING). Options: {@link FailoverSettings}.
 */
public final class StoreFailoverScenario implements Scenario {

    @Override
    public ResultTable run(Options options) throws Exception {
        Logging.configure(options);
        System.setProperty("org.slf4j.simpleLogger.log.org.flywaydb", "warn");
        FailoverSettings s = FailoverSettings.of(options);
        FailoverRound round = new FailoverRound(s);
        Map<FailoverRound.Mode, List<FailoverRound.Result>> results = new LinkedHashMap<>();
        for (int r = 0; r < s.rounds(); r++) {
            for (FailoverRound.Mode mode : s.modes()) {
                log("%s: round %d of %d", mode.label, r + 1, s.rounds());
                FailoverRound.Result result = round.run(mode);
                log(
                        "%s: handlers again after %.0f ms (promotion took %.0f ms); DOWN %.0f-%.0f ms; loss"
                                + " reported after %.0f ms; %d of %d acknowledged never started; %d run twice (%d of"
                                + " them listed as affected); series stopped %s; %d RUNNING left (none after %.0f ms); %d"
                                + " schedule calls refused; %,d bytes of WAL lost",
                        mode.label,
                        result.recoveryMs(),
                        result.failoverMs(),
                        result.troubleFromMs(),
                        result.troubleToMs(),
                        result.reportedMs(),
                        result.neverStarted(),
                        result.acknowledged(),
                        result.ranTwice(),
                        result.ranTwiceReported(),
                        result.seriesStopped(),
                        result.stuckRunning(),
                        result.noneRunningMs(),
                        result.scheduleFailures(),
                        result.lostCommitsBytes());
                results.computeIfAbsent(mode, m -> new ArrayList<>()).add(result);
            }
        }
        return table(s, results);
    }

    private static ResultTable table(FailoverSettings s, Map<FailoverRound.Mode, List<FailoverRound.Result>> results) {
        List<String> columns = results.keySet().stream().map(m -> m.label).toList();
        ResultTable t = new ResultTable(
                        "PostgreSQL failover: " + s.nodes() + " nodes, a series every "
                                + s.rate().toMillis()
                                + " ms and " + s.delayedPerSecond() + " delayed instances/s; median (min-max) of "
                                + s.rounds() + " round(s) per mode",
                        columns,
                        "synchronous")
                .withoutRatios();
        t.text("primary killed -> standby promoted", "ms", cells(results, FailoverRound.Result::failoverMs));
        t.text("primary killed -> handlers run again", "ms", cells(results, FailoverRound.Result::recoveryMs));
        t.text("primary killed -> a node reports the loss", "ms", cells(results, FailoverRound.Result::reportedMs));
        t.text("a node DOWN for its store, from", "ms", cells(results, FailoverRound.Result::troubleFromMs));
        t.text("... to", "ms", cells(results, FailoverRound.Result::troubleToMs));
        t.text("WAL the new primary lacks", "bytes", cells(results, r -> r.lostCommitsBytes()));
        t.text("delayed instances acknowledged", "count", cells(results, r -> r.acknowledged()));
        t.text("acknowledged, never started", "count", cells(results, r -> r.neverStarted()));
        t.text("work run twice", "count", cells(results, r -> r.ranTwice()));
        t.text("... of which a node listed as affected", "count", cells(results, r -> r.ranTwiceReported()));
        t.text("series stopped", "rounds", cells(results, r -> r.seriesStopped() ? 1 : 0));
        t.text("primary killed -> no row RUNNING", "ms", cells(results, FailoverRound.Result::noneRunningMs));
        t.text("rows still RUNNING after the settle", "count", cells(results, r -> r.stuckRunning()));
        t.text("schedule calls refused during the failover", "count", cells(results, r -> r.scheduleFailures()));
        t.note("each round starts a new pair (initdb, pg_basebackup) under target/pg-pair; nodes use"
                + " targetServerType=primary and hostRecheckSeconds="
                + s.hostRecheck().toSeconds()
                + ", the default cluster timing (heartbeat 3 s, lease 10 s)");
        return t;
    }

    private static Map<String, String> cells(
            Map<FailoverRound.Mode, List<FailoverRound.Result>> results,
            ToDoubleFunction<FailoverRound.Result> figure) {
        Map<String, String> out = new LinkedHashMap<>();
        results.forEach((mode, list) -> {
            double[] v = list.stream().mapToDouble(figure).sorted().toArray();
            if (v.length == 0 || Double.isNaN(v[v.length / 2])) {
                out.put(mode.label, "-");
            } else if (v.length == 1) {
                out.put(mode.label, String.format(Locale.ROOT, "%,.0f", v[0]));
            } else {
                out.put(
                        mode.label,
                        String.format(Locale.ROOT, "%,.0f (%,.0f-%,.0f)", v[v.length / 2], v[0], v[v.length - 1]));
            }
        });
        return out;
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[store-failover] " + format + "%n", args);
    }
}
