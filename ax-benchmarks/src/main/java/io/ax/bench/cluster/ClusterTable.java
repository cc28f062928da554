package io.ax.bench.cluster;

import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** The scenario's one table: a block of rows per part and node count, AX beside db-scheduler; then the notes. */
final class ClusterTable {

    private ClusterTable() {}

    static ResultTable of(
            Settings s,
            Map<Integer, Map<String, BurstPhase.Result>> bursts,
            Map<Integer, Map<String, RecurringPhase.Result>> recurring,
            FailoverPhase.Result failover,
            Path logDir,
            boolean axInfoLog) {
        ResultTable t = new ResultTable(
                "Cluster: 1 to 3 nodes, each a JVM of its own", List.of(ClusterScenario.AX, ClusterScenario.DBS));
        bursts.forEach((n, r) -> burstRows(t, n, r));
        scaling(t, bursts, "burst: executions/s", BurstPhase.Result::perSecond);
        recurring.forEach((n, r) -> recurringRows(t, s.recurringTasks(), n, r));
        if (failover != null) {
            failoverRows(t, failover);
        }
        ClusterNotes.add(t, s, bursts, recurring, failover, logDir, axInfoLog);
        return t;
    }

    private static String nodes(int n) {
        return n + (n == 1 ? " node" : " nodes");
    }

    private static void burstRows(ResultTable t, int n, Map<String, BurstPhase.Result> r) {
        String p = "burst, " + nodes(n) + ": ";
        t.row(p + "executions/s", "1/s", Better.HIGHER, values(r, BurstPhase.Result::perSecond));
        t.row(p + "time from due to all done", "s", Better.LOWER, values(r, BurstPhase.Result::seconds));
        t.row(p + "busiest node's share", "%", Better.LOWER, values(r, x -> busiestShare(x.perNode())));
        t.row(p + "executions run twice", "count", Better.LOWER, values(r, x -> (double) x.duplicates()));
        t.row(p + "node JVMs' CPU", "s", Better.LOWER, values(r, BurstPhase.Result::nodeCpu));
        t.row(p + "PostgreSQL server CPU", "s", Better.LOWER, values(r, BurstPhase.Result::serverCpu));
        ackRows(t, p, values(r, x -> x.checks() == null ? null : x.checks().ack()), n);
    }

    private static void recurringRows(ResultTable t, int tasks, int n, Map<String, RecurringPhase.Result> r) {
        // the load's name says its rate: 10,000 tasks due every second is "10k/s"
        String rate = tasks % 1_000 == 0 ? tasks / 1_000 + "k/s" : String.format("%,d/s", tasks);
        String p = "recurring " + rate + ", " + nodes(n) + ": ";
        t.row(p + "fires/s", "1/s", Better.HIGHER, values(r, RecurringPhase.Result::firesPerSecond));
        t.row(p + "fires achieved of due", "%", Better.HIGHER, values(r, RecurringPhase.Result::achievedPercent));
        t.row(p + "lateness p50", "ms", Better.LOWER, values(r, x -> x.latenessMillis(50)));
        t.row(p + "lateness p99", "ms", Better.LOWER, values(r, x -> x.latenessMillis(99)));
        t.row(p + "fires run twice", "count", Better.LOWER, values(r, x -> (double) x.duplicates()));
        t.row(p + "busiest node's share", "%", Better.LOWER, values(r, x -> busiestShare(x.perNode())));
        t.row(p + "node JVMs' CPU", "s", Better.LOWER, values(r, RecurringPhase.Result::nodeCpu));
        t.row(p + "PostgreSQL server CPU", "s", Better.LOWER, values(r, RecurringPhase.Result::serverCpu));
        ackRows(t, p, values(r, x -> x.checks() == null ? null : x.checks().ack()), n);
    }

    private static void ackRows(ResultTable t, String p, Map<String, Audit.Ack> acks, int n) {
        Audit.Ack ack = acks.get(ClusterScenario.AX);
        if (ack == null) {
            return;
        }
        t.row(p + "acknowledgement p50", "ms", Better.LOWER, Map.of(ClusterScenario.AX, ack.p50Millis()));
        t.row(p + "acknowledgement p99", "ms", Better.LOWER, Map.of(ClusterScenario.AX, ack.p99Millis()));
        if (n > 1) {
            t.row(
                    p + "acknowledgement p99, assigned to another node",
                    "ms",
                    Better.LOWER,
                    Map.of(ClusterScenario.AX, ack.remoteP99Millis()));
        }
    }

    private static void failoverRows(ResultTable t, FailoverPhase.Result f) {
        String p = String.format(
                Locale.ROOT, "failover, leader killed %d times: ", f.seconds().size());
        t.row(p + "min", "s", Better.LOWER, Map.of(ClusterScenario.AX, f.min()));
        t.row(p + "median", "s", Better.LOWER, Map.of(ClusterScenario.AX, f.median()));
        t.row(p + "max", "s", Better.LOWER, Map.of(ClusterScenario.AX, f.max()));
        t.row(p + "bound (lease + heartbeat)", "s", Better.LOWER, Map.of(ClusterScenario.AX, f.boundSeconds()));
        t.row("failover: fires run twice meanwhile", "count", Better.LOWER, Map.of(ClusterScenario.AX, (double)
                f.checks().duplicates()));
        t.row(
                "failover: fires due meanwhile that did not succeed",
                "count",
                Better.LOWER,
                Map.of(ClusterScenario.AX, (double) f.fires().missed()));
        t.row(
                "failover: fire lateness max meanwhile",
                "ms",
                Better.LOWER,
                Map.of(ClusterScenario.AX, f.fires().maxLateMillis()));
    }

    /** Rows "with N nodes / with 1 node" of a metric, per system. */
    private static <R> void scaling(
            ResultTable t, Map<Integer, Map<String, R>> results, String what, Function<R, Double> metric) {
        Map<String, R> one = results.get(1);
        if (one == null) {
            return;
        }
        results.forEach((n, r) -> {
            if (n == 1) {
                return;
            }
            Map<String, Double> ratio = new LinkedHashMap<>();
            r.forEach((system, x) -> {
                R base = one.get(system);
                if (base != null) {
                    ratio.put(system, metric.apply(x) / metric.apply(base));
                }
            });
            t.row(what + ", " + nodes(n) + " / 1 node", "x", Better.HIGHER, ratio);
        });
    }

    static double busiestShare(Map<String, Long> perNode) {
        long total = perNode.values().stream().mapToLong(Long::longValue).sum();
        long max = perNode.values().stream().mapToLong(Long::longValue).max().orElse(0);
        return total == 0 ? Double.NaN : 100.0 * max / total;
    }

    private static <R, V> Map<String, V> values(Map<String, R> r, Function<R, V> metric) {
        Map<String, V> out = new LinkedHashMap<>();
        r.forEach((k, v) -> {
            V value = metric.apply(v);
            if (value != null) {
                out.put(k, value);
            }
        });
        return out;
    }
}
