package io.ax.bench.queue;

import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/** The {@code queue} scenario's table: the median of the rounds per figure, each round's figures in the notes. */
final class QueueTable {

    private QueueTable() {}

    static ResultTable of(
            QueueSettings s,
            List<QueueSide> sides,
            List<QueueRounds.Drain> drains,
            List<QueueRounds.Latency> latencies,
            double loadBefore,
            double loadAfter,
            Path logDir) {
        List<String> names = sides.stream().map(QueueSide::name).toList();
        ResultTable t = new ResultTable(
                String.format(
                        Locale.ROOT,
                        "A job queue on PostgreSQL: %,d no-op jobs queued, then drained; added at %d/s (median of %d"
                                + " round(s))",
                        s.jobs(),
                        s.rate(),
                        s.rounds()),
                names);
        Predicate<QueueRounds.Drain> one = d -> d.processes() == 1;
        Predicate<QueueRounds.Drain> two = d -> d.processes() == 2;
        t.row(
                "drain, 1 process / node",
                "executions/s",
                Better.HIGHER,
                drain(names, drains, one, QueueRounds.Drain::perSecond));
        t.row(
                "drain, 2 processes / nodes",
                "executions/s",
                Better.HIGHER,
                drain(names, drains, two, QueueRounds.Drain::perSecond));
        t.row(
                "PostgreSQL CPU per execution, drain, 1 process",
                "µs",
                Better.LOWER,
                drain(names, drains, one, d -> d.drainServerCpu() * 1e6 / d.jobs()));
        t.row(
                "PostgreSQL CPU per execution, drain, 2 processes",
                "µs",
                Better.LOWER,
                drain(names, drains, two, d -> d.drainServerCpu() * 1e6 / d.jobs()));
        t.row(
                "PostgreSQL CPU per job, queued and run (1 process)",
                "µs",
                Better.LOWER,
                drain(names, drains, one, d -> (d.queueServerCpu() + d.drainServerCpu()) * 1e6 / d.jobs()));
        t.row(
                "WAL per job, queued and run (1 process)",
                "bytes",
                Better.LOWER,
                drain(names, drains, one, d -> (double) (d.queueWal() + d.drainWal()) / d.jobs()));
        t.row(
                "WAL per execution, drain (1 process)",
                "bytes",
                Better.LOWER,
                drain(names, drains, one, d -> (double) d.drainWal() / d.jobs()));
        t.row(
                "worker CPU per execution, drain, 1 process",
                "µs",
                Better.LOWER,
                drain(names, drains, one, d -> d.workerCpu() * 1e6 / d.jobs()));
        t.row(
                "worker CPU per execution, drain, 2 processes",
                "µs",
                Better.LOWER,
                drain(names, drains, two, d -> d.workerCpu() * 1e6 / d.jobs()));
        t.row(
                String.format(Locale.ROOT, "queueing %,d in one call", s.jobs()),
                "jobs/s",
                Better.HIGHER,
                drain(names, drains, d -> true, d -> d.jobs() / d.queueSeconds()));
        t.row(
                "PostgreSQL CPU per job queued",
                "µs",
                Better.LOWER,
                drain(names, drains, d -> true, d -> d.queueServerCpu() * 1e6 / d.jobs()));
        t.row(
                "WAL per job queued",
                "bytes",
                Better.LOWER,
                drain(names, drains, d -> true, d -> (double) d.queueWal() / d.jobs()));
        for (boolean across : new boolean[] {false, true}) {
            String where = across ? "across processes" : "within one process";
            t.row(
                    "added -> handler start, " + where + ", p50",
                    "ms",
                    Better.LOWER,
                    latency(names, latencies, across, QueueRounds.Latency::p50));
            t.row(
                    "added -> handler start, " + where + ", p99",
                    "ms",
                    Better.LOWER,
                    latency(names, latencies, across, QueueRounds.Latency::p99));
        }
        t.note(String.format(
                Locale.ROOT,
                "Each round on fresh processes and an empty schema, the sides alternating which goes first. Drain: %,d"
                        + " jobs drained first by the same processes (not measured); then %,d queued in one call with no"
                        + " worker running (AX: `scheduleAll` of an application whose engine has not started;"
                        + " graphile-worker: `addJobs`), analyzed, and timed from the workers' start until every"
                        + " handler ran and the database holds none not done (AX: SUCCESS; graphile-worker: deleted)."
                        + " Latency: one job at a time at %d/s for %d s after a %d s warm-up (AX: `schedule`;"
                        + " graphile-worker: `addJob`), from just before the call to the handler's start, on the"
                        + " machine's real-time clock; across processes, another process adds them (AX: an"
                        + " application whose engine has not started, so the node is woken by the store's"
                        + " LISTEN/NOTIFY).",
                s.warmup(),
                s.jobs(),
                s.rate(),
                s.latencySeconds(),
                s.latencyWarmupSeconds()));
        t.note(String.format(
                Locale.ROOT,
                "Settings: %d jobs at once per process (graphile-worker: `concurrentJobs` %d, `maxPoolSize` %d,"
                        + " `localQueue.size` 500, `completeJobBatchDelay` 0, its documented high-performance ones;"
                        + " AX: a pool of %d threads, AX's default cluster settings, 10 connections). PostgreSQL CPU"
                        + " from /proc (every postgres process), WAL from `pg_current_wal_lsn()`, each around its"
                        + " step; worker CPU: the processes' own CPU from their start to their stop.",
                s.concurrency(),
                s.concurrency(),
                s.concurrency() + 1,
                s.concurrency()));
        for (QueueRounds.Drain d : drains) {
            t.note(String.format(
                    Locale.ROOT,
                    "%s, %d process(es): queued in %.2f s, drained in %.2f s (%,.0f/s); PostgreSQL CPU %.2f + %.2f s;"
                            + " WAL %,d + %,d bytes; worker CPU %.2f s",
                    d.side(),
                    d.processes(),
                    d.queueSeconds(),
                    d.drainSeconds(),
                    d.perSecond(),
                    d.queueServerCpu(),
                    d.drainServerCpu(),
                    d.queueWal(),
                    d.drainWal(),
                    d.workerCpu()));
            if (d.left() > 0 || d.executions() != d.jobs()) {
                t.failure(String.format(
                        Locale.ROOT,
                        "%s, %d process(es): %,d jobs queued, %,d executions, %,d left in the database",
                        d.side(),
                        d.processes(),
                        d.jobs(),
                        d.executions(),
                        d.left()));
            }
        }
        for (QueueRounds.Latency l : latencies) {
            t.note(String.format(
                    Locale.ROOT,
                    "%s, %s: %,d jobs, p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                    l.side(),
                    l.acrossProcesses() ? "across processes" : "within one process",
                    l.count(),
                    l.p50(),
                    l.p99(),
                    l.max()));
            if (l.count() != l.expected()) {
                t.failure(String.format(
                        Locale.ROOT,
                        "%s, latency %s: %,d jobs added, %,d waits measured",
                        l.side(),
                        l.acrossProcesses() ? "across processes" : "within one process",
                        l.expected(),
                        l.count()));
            }
        }
        t.note(String.format(
                Locale.ROOT,
                "Load average %.2f before, %.2f after; process logs in %s.",
                loadBefore,
                loadAfter,
                logDir));
        return t;
    }

    private static Map<String, Double> drain(
            List<String> names,
            List<QueueRounds.Drain> drains,
            Predicate<QueueRounds.Drain> which,
            ToDoubleFunction<QueueRounds.Drain> figure) {
        return medians(names, drains, QueueRounds.Drain::side, which, figure);
    }

    private static Map<String, Double> latency(
            List<String> names,
            List<QueueRounds.Latency> latencies,
            boolean across,
            ToDoubleFunction<QueueRounds.Latency> figure) {
        return medians(names, latencies, QueueRounds.Latency::side, l -> l.acrossProcesses() == across, figure);
    }

    /** Per side, the median of {@code figure} over the rounds {@code which} takes. */
    private static <R> Map<String, Double> medians(
            List<String> names,
            List<R> rounds,
            Function<R, String> sideOf,
            Predicate<R> which,
            ToDoubleFunction<R> figure) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String name : names) {
            List<Double> values = new ArrayList<>();
            for (R r : rounds) {
                if (sideOf.apply(r).equals(name) && which.test(r)) {
                    values.add(figure.applyAsDouble(r));
                }
            }
            out.put(name, median(values));
        }
        return out;
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
