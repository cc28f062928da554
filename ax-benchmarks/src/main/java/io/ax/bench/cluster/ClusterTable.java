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
            PartitionPhase.Result partitions,
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
        if (partitions != null) {
            partitionRows(t, partitions);
        }
        ClusterNotes.add(t, s, bursts, recurring, failover, partitions, logDir, axInfoLog);
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
    }

    private static void recurringRows(ResultTable t, int tasks, int n, Map<String, RecurringPhase.Result> r) {
        // the load's name says its rate: 10,000 tasks due every second is "10k/s"
        String rate = tasks % 1_000 == 0 ? tasks / 1_000 + "k/s" : String.format("%,d/s", tasks);
        String p = "recurring " + rate + ", " + nodes(n) + ": ";
        t.row(p + "fires/s", "1/s", Better.HIGHER, values(r, RecurringPhase.Result::firesPerSecond));
        t.row(p + "fires achieved of due", "%", Better.HIGHER, values(r, RecurringPhase.Result::achievedPercent));
        t.row(p + "lateness p50", "ms", Better.LOWER, values(r, x -> x.latenessMillis(50)));
        t.row(p + "lateness p99", "ms", Better.LOWER, values(r, x -> x.latenessMillis(99)));
        t.row(p + "lateness max", "ms", Better.LOWER, values(r, x -> x.latenessMillis(100)));
        t.row(p + "fires run twice", "count", Better.LOWER, values(r, x -> (double) x.duplicates()));
        t.row(
                p + "largest lag figure (AX's own)",
                "ms",
                Better.LOWER,
                values(r, x -> x.lag() == null ? null : (double) x.lag().maxClusterMillis()));
        t.row(
                p + "series repaired",
                "count",
                Better.LOWER,
                values(r, x -> x.lag() == null ? null : (double) x.lag().repairedSeries()));
        t.row(p + "busiest node's share", "%", Better.LOWER, values(r, x -> busiestShare(x.perNode())));
        t.row(p + "node JVMs' CPU", "s", Better.LOWER, values(r, RecurringPhase.Result::nodeCpu));
        t.row(p + "PostgreSQL server CPU", "s", Better.LOWER, values(r, RecurringPhase.Result::serverCpu));
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

    private static void partitionRows(ResultTable t, PartitionPhase.Result r) {
        int count = r.partitions();
        for (PartitionPhase.Move j : r.joins()) {
            t.text(
                    String.format(
                            Locale.ROOT,
                            "partitions, node %d joins: moved (expected %d of %d)",
                            j.nodes(),
                            Math.round((double) count / j.nodes()),
                            count),
                    "count",
                    count(j.moved()));
        }
        PartitionPhase.Move leave = r.leave();
        t.text(
                String.format(
                        Locale.ROOT,
                        "partitions, a node of %d stops gracefully: moved (it owned %d)",
                        leave.nodes() + 1,
                        r.leaveOwned()),
                "count",
                count(leave.moved()));
        t.row(
                "partitions, a node stops gracefully: from STOP until it gives its partitions up",
                "s",
                Better.LOWER,
                ax(leave.stopSeconds()));
        t.row(
                "partitions, a node stops gracefully: from then until the others own all of them",
                "s",
                Better.LOWER,
                ax(leave.seconds()));
        List<Double> replaced =
                r.kills().stream().map(k -> (double) k.replacement().moved()).toList();
        if (!replaced.isEmpty()) {
            int nodes = r.kills().get(0).replacement().nodes();
            t.text(
                    String.format(
                            Locale.ROOT,
                            "partitions, a new node %d joins after each kill: moved, min / median / max (expected %d)",
                            nodes,
                            Math.round((double) count / nodes)),
                    "count",
                    Map.of(ClusterScenario.AX, slashed(replaced)));
        }
        List<Double> seconds = r.takeoverSeconds();
        if (seconds.isEmpty()) {
            return;
        }
        String p = String.format(
                Locale.ROOT, "partition takeover, %d kills (leader, non-leader by turns): ", seconds.size());
        t.row(p + "min", "s", Better.LOWER, ax(Timings.min(seconds)));
        t.row(p + "median", "s", Better.LOWER, ax(Timings.median(seconds)));
        t.row(p + "max", "s", Better.LOWER, ax(Timings.max(seconds)));
        t.row(p + "bound (lease + heartbeat)", "s", Better.LOWER, ax(r.boundSeconds()));
        t.text(
                "partition takeover: last take after the dead node's lease ran out (database clock), min / median /"
                        + " max",
                "ms",
                Map.of(ClusterScenario.AX, slashed(r.afterLeaseMillis())));
        t.text(
                "partition takeover: partitions the dead node owned, min / median / max",
                "count",
                Map.of(
                        ClusterScenario.AX,
                        slashed(r.kills().stream().map(k -> (double) k.owned()).toList())));
        t.text(
                "partition takeover: partitions moved per kill, min / median / max",
                "count",
                Map.of(
                        ClusterScenario.AX,
                        slashed(r.kills().stream().map(k -> (double) k.moved()).toList())));
        t.text(
                "partition takeover: of them moved twice (taken, then handed on), all kills",
                "count",
                count(r.kills().stream()
                        .mapToInt(PartitionPhase.Kill::movedTwice)
                        .sum()));
        t.text(
                "partition takeover: of them not the dead node's, all kills",
                "count",
                count(r.kills().stream()
                        .mapToInt(PartitionPhase.Kill::movedOthers)
                        .sum()));
        t.row(
                "partitions: longest time a partition had no live owner, whole part",
                "s",
                Better.LOWER,
                ax(r.ownerless().longestSeconds()));
        t.text(
                "partitions: times a partition had no live owner for longer than lease + heartbeat",
                "count",
                count(r.ownerless().overBound()));
    }

    private static Map<String, String> count(int n) {
        return Map.of(ClusterScenario.AX, String.format(Locale.ROOT, "%,d", n));
    }

    private static Map<String, Double> ax(double value) {
        return Map.of(ClusterScenario.AX, value);
    }

    /** {@code min / median / max}, whole numbers without decimals (a median of an even count may have .5). */
    private static String slashed(List<Double> values) {
        if (values.isEmpty()) {
            return "—";
        }
        return whole(Timings.min(values)) + " / " + whole(Timings.median(values)) + " / " + whole(Timings.max(values));
    }

    private static String whole(double v) {
        return String.format(Locale.ROOT, v == Math.rint(v) ? "%.0f" : "%.1f", v);
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
