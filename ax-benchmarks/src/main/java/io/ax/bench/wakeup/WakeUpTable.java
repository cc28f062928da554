package io.ax.bench.wakeup;

import io.ax.bench.LoadAverage;
import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/** The {@code wakeup} scenario's table: one column per database and wake-up kind, one row per figure; then notes. */
final class WakeUpTable {

    private WakeUpTable() {}

    static ResultTable of(WakeUpSettings s, List<WakeUpRound.Result> results, boolean axInfoLog) {
        List<String> columns = results.stream().map(r -> r.round().column()).toList();
        ResultTable t = new ResultTable(
                        String.format(
                                Locale.ROOT,
                                "Schedule call to handler start: %d nodes, %d delayed instances a second due at once,"
                                        + " %d s a round",
                                s.nodes(),
                                s.rate(),
                                s.seconds()),
                        columns,
                        columns.get(0))
                .withoutRatios();
        latencies(t, results, "run by another node (woken)", RunLog.Tally::remote);
        latencies(t, results, "run by the scheduling node", RunLog.Tally::local);
        t.row(
                "schedule call p50",
                "ms",
                Better.LOWER,
                values(results, r -> RunLog.Tally.millis(r.tally().call(), 50)));
        t.row(
                "schedule call p99",
                "ms",
                Better.LOWER,
                values(results, r -> RunLog.Tally.millis(r.tally().call(), 99)));
        t.text(
                "scheduled / missing / run twice, warm-up included",
                "count",
                texts(
                        results,
                        r -> String.format(
                                Locale.ROOT,
                                "%,d / %d / %d",
                                r.tally().scheduled(),
                                r.tally().missing(),
                                r.tally().twice().size())));
        t.text(
                "partitions per node at the start",
                "count",
                texts(
                        results,
                        r -> String.join(
                                " / ",
                                r.split().values().stream().map(String::valueOf).toList())));
        t.text(
                "load average (1 min) during the round",
                "min-max",
                texts(results, r -> String.format(Locale.ROOT, "%.1f-%.1f", r.loadMin(), r.loadMax())));
        notes(t, s, results, axInfoLog);
        for (WakeUpRound.Result r : results) {
            if (!r.clean()) {
                t.failure(String.format(
                        Locale.ROOT,
                        "%s: %d scheduled instance(s) never started, %d handler start(s) of an instance that had"
                                + " started already %s, %d start(s) of instances the load did not schedule, %d"
                                + " schedule call(s) failed; rows by state %s",
                        r.round().column(),
                        r.tally().missing(),
                        r.tally().twice().size(),
                        r.tally().twiceSample(),
                        r.tally().unknown(),
                        r.scheduleFailures(),
                        r.states()));
            }
        }
        return t;
    }

    private static void latencies(
            ResultTable t, List<WakeUpRound.Result> results, String who, Function<RunLog.Tally, Histogram> of) {
        t.text(
                who + ": instances",
                "count",
                texts(
                        results,
                        r -> String.format(
                                Locale.ROOT, "%,d", of.apply(r.tally()).getTotalCount())));
        for (double p : new double[] {50, 90, 99}) {
            t.row(
                    String.format(Locale.ROOT, "%s: p%.0f", who, p),
                    "ms",
                    Better.LOWER,
                    values(results, r -> RunLog.Tally.millis(of.apply(r.tally()), p)));
        }
        t.row(who + ": max", "ms", Better.LOWER, values(results, r -> RunLog.Tally.maxMillis(of.apply(r.tally()))));
    }

    private static Map<String, Double> values(
            List<WakeUpRound.Result> results, Function<WakeUpRound.Result, Double> f) {
        Map<String, Double> out = new LinkedHashMap<>();
        results.forEach(r -> out.put(r.round().column(), f.apply(r)));
        return out;
    }

    private static Map<String, String> texts(List<WakeUpRound.Result> results, Function<WakeUpRound.Result, String> f) {
        Map<String, String> out = new LinkedHashMap<>();
        results.forEach(r -> out.put(r.round().column(), f.apply(r)));
        return out;
    }

    private static void notes(ResultTable t, WakeUpSettings s, List<WakeUpRound.Result> results, boolean axInfoLog) {
        var c = s.cluster();
        t.note(String.format(
                Locale.ROOT,
                "%d AX engines in one JVM over one database, each with its own JDBC store and pool of 6 connections,"
                        + " partitioned ownership (%d partitions), split between them before the load began; the"
                        + " first node schedules every instance (`schedule(ScheduleRequest.of(task).after(ZERO))`,"
                        + " a concurrent no-op task, PERSISTENT), %d a second for %d s after %d s of warm-up left out"
                        + " of the latencies",
                s.nodes(),
                c.partitions(),
                s.rate(),
                s.seconds(),
                s.warmup()));
        t.note("latency = the handler's start minus the moment the schedule call was made (System.nanoTime, one"
                + " JVM): the write and its commit, the wake-up or the owner's own round, the owner's read, its claim"
                + " and the hand-over to a pool thread; \"run by another node\" is the wake-up path, \"run by the"
                + " scheduling node\" the local baseline (its own wheel, no wake-up)");
        t.note(String.format(
                Locale.ROOT,
                "cluster settings: poll interval %d ms (`ax.cluster.poll-interval`%s), heartbeat %d ms, lease %d ms;"
                        + " Redis: key prefix %s<database>:, with the store's own wake-ups behind it as the"
                        + " auto-configuration wires it; \"poll only\": `WakeUps.none()`",
                c.pollInterval().toMillis(),
                c.pollInterval().toMillis() == 500 ? ", AX's default" : "",
                c.heartbeat().toMillis(),
                c.lease().toMillis(),
                s.redisPrefix()));
        Set<String> versions = new LinkedHashSet<>();
        results.forEach(r -> versions.add(r.versions()));
        t.note("versions: " + String.join("; ", versions));
        StringBuilder load = new StringBuilder();
        for (WakeUpRound.Result r : results) {
            load.append(String.format(
                    Locale.ROOT,
                    "%s%s %.1f-%.1f",
                    load.length() == 0 ? "" : ", ",
                    r.round().column(),
                    r.loadMin(),
                    r.loadMax()));
        }
        t.note(String.format(
                Locale.ROOT,
                "1-minute load average read every second of each round: %s, on %d cores%s; the databases and Redis"
                        + " run on the same machine",
                load,
                Runtime.getRuntime().availableProcessors(),
                LoadAverage.niceness() == 0 ? "" : ", at nice " + LoadAverage.niceness()));
        StringBuilder splits = new StringBuilder();
        for (WakeUpRound.Result r : results) {
            splits.append(String.format(
                    Locale.ROOT,
                    "%s%s %.1f s",
                    splits.length() == 0 ? "" : ", ",
                    r.round().column(),
                    r.splitSeconds()));
            if (r.redisListeners() >= 0) {
                splits.append(" (").append(r.redisListeners()).append(" Redis subscribers)");
            }
        }
        t.note("from the first node's start until the partitions' split held still for 1 s: " + splits);
        if (!axInfoLog) {
            t.note("AX's INFO log off (`--ax-info-log=true` turns it on)");
        }
    }
}
