package io.ax.bench.cluster;

import io.ax.bench.db.ServerCpu;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Part 2, the recurring load: {@code tasks} tasks each due every second (10,000 fires a second), on {@code n} nodes
 * for {@code seconds}, the first {@code warmup} left out; the clock starts once the nodes have formed their cluster
 * (AX) or all started (db-scheduler). As in the {@code recurring} scenario: fires/s = executions that started in the
 * window / its length; lateness = handler start minus fire time, recorded by each node.
 */
final class RecurringPhase {

    /** What one round measured. */
    record Result(
            String system,
            int nodes,
            long fires,
            double window,
            long expected,
            Histogram lateness,
            long early,
            double serverCpu,
            double nodeCpu,
            Map<String, Long> perNode,
            long handlerTwice,
            Audit.Checks checks,
            List<String> killedAtStop,
            Map<String, Integer> problems,
            Lag lag) {

        double firesPerSecond() {
            return fires / window;
        }

        double achievedPercent() {
            return expected == 0 ? Double.NaN : 100.0 * fires / expected;
        }

        double latenessMillis(double percentile) {
            return lateness.getTotalCount() == 0 ? Double.NaN : lateness.getValueAtPercentile(percentile) / 1000.0;
        }

        long duplicates() {
            return handlerTwice + (checks == null ? 0 : checks.duplicates());
        }
    }

    /**
     * AX's own lag figures, read from the nodes every second of the window: the largest a node said of itself and of
     * the cluster (to set beside the lateness the handlers measured), and the series the nodes repaired since they
     * started. Null for db-scheduler.
     */
    record Lag(long maxNodeMillis, long maxClusterMillis, long repairedSeries) {

        Lag with(Map<String, Map<String, String>> views) {
            long node = maxNodeMillis;
            long cluster = maxClusterMillis;
            long repaired = 0;
            for (Map<String, String> v : views.values()) {
                if (!v.containsKey("lag")) {
                    return null; // not an AX node
                }
                node = Math.max(node, Long.parseLong(v.get("lag")));
                cluster = Math.max(cluster, Long.parseLong(v.get("clusterLag")));
                repaired += Long.parseLong(v.get("repaired"));
            }
            return new Lag(node, cluster, repaired);
        }
    }

    private final NodeProcesses processes;
    private final Settings settings;

    RecurringPhase(NodeProcesses processes, Settings settings) {
        this.processes = processes;
        this.settings = settings;
    }

    Result run(ClusterSystem system, int n) throws Exception {
        int tasks = settings.recurringTasks();
        system.recreate(ClusterSystem.Part.RECURRING);
        system.prepareRecurring(tasks);
        List<String> args = new ArrayList<>(system.nodeArgs());
        args.addAll(settings.nodeArgs());
        args.add("--load=recurring");
        args.add("--tasks=" + tasks);
        args.add("--queue=" + Math.max(20_000, tasks)); // as the recurring scenario: a whole second's fires fit
        String label = "recurring-" + Settings.slug(system.name()) + "-" + n + "n";
        if (system instanceof DbSchedulerCluster dbs) {
            dbs.dueAtNextSecond();
        }
        ClusterScenario.log("%s: starting %d node(s) with %,d tasks each due every second", label, n, tasks);
        NodeGroup group = NodeGroup.start(processes, label, Settings.ids(system, "", n), args);
        List<NodeGroup.Report> reports;
        long handlerTwice;
        Instant from;
        Instant to;
        double window;
        double serverCpu;
        List<String> killed;
        Lag lag = system instanceof AxCluster ? new Lag(0, 0, 0) : null;
        try {
            if (system instanceof AxCluster) {
                group.awaitJoined(Settings.JOIN);
                system.analyze(); // as the recurring scenario: statistics once the first rows are in
            }
            long t0 = System.nanoTime();
            BurstPhase.sleepUntil(t0 + settings.warmup() * 1_000_000_000L);
            group.cut();
            from = Instant.now();
            long windowStart = System.nanoTime();
            long before = group.executions();
            ServerCpu cpu = ServerCpu.start();
            for (int s = settings.warmup() + 1; s < settings.seconds(); s++) {
                BurstPhase.sleepUntil(t0 + s * 1_000_000_000L);
                if (lag != null) {
                    lag = lag.with(group.views());
                }
                if ((s - settings.warmup()) % 5 == 0) {
                    ClusterScenario.log(
                            "%s: %d s, %,d fires in the window%s",
                            label,
                            s,
                            group.executions() - before,
                            lag == null ? "" : ", AX's largest lag figure so far " + lag.maxClusterMillis() + " ms");
                }
            }
            BurstPhase.sleepUntil(t0 + settings.seconds() * 1_000_000_000L);
            // the window ends as the nodes are asked for their counts: taken after, a slow report could add a second
            // of due fires that no count includes (a round once read 98.2 % of due with every due fire run)
            to = Instant.now();
            window = (System.nanoTime() - windowStart) / 1e9;
            reports = group.report();
            ClusterScenario.logStoreCalls(label, reports);
            serverCpu = cpu.seconds();
            handlerTwice = group.duplicates();
            if (lag != null) {
                lag = lag.with(group.views()); // the repairs up to the end
            }
        } finally {
            killed = group.stop();
        }
        Histogram lateness = new Histogram(3);
        Map<String, Long> perNode = new TreeMap<>();
        long early = 0;
        double nodeCpu = 0;
        for (NodeGroup.Report r : reports) {
            lateness.add(r.lateness());
            perNode.put(r.node(), r.lateness().getTotalCount());
            early += r.early();
            nodeCpu += r.cpuSeconds();
        }
        Audit.Checks checks = null;
        if (system instanceof AxCluster ax) {
            checks = new Audit(ax.jdbc(), ax.prefix()).check(micros(from), micros(to));
            perNode = checks.runningByNode();
        }
        long expected = (long) tasks * (to.getEpochSecond() - from.getEpochSecond());
        Result r = new Result(
                system.name(),
                n,
                lateness.getTotalCount(),
                window,
                expected,
                lateness,
                early,
                serverCpu,
                nodeCpu,
                perNode,
                handlerTwice,
                checks,
                killed,
                NodeLogs.problems(group.logs()),
                lag);
        ClusterScenario.log(
                "%s: %,.0f fires/s (%.1f %% of due), lateness p50 %.1f ms p99 %.1f ms max %.1f ms; PostgreSQL CPU"
                        + " %.1f s, node JVMs CPU %.1f s; per node %s; %d started early; run twice (handlers) %d%s%s",
                label,
                r.firesPerSecond(),
                r.achievedPercent(),
                r.latenessMillis(50),
                r.latenessMillis(99),
                lateness.getTotalCount() == 0 ? Double.NaN : lateness.getMaxValue() / 1000.0,
                serverCpu,
                nodeCpu,
                perNode,
                early,
                handlerTwice,
                checks == null ? "" : "; audit " + checks,
                lag == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                "; AX's lag figure at most %d ms (a node's own %d ms), series repaired %d",
                                lag.maxClusterMillis(),
                                lag.maxNodeMillis(),
                                lag.repairedSeries()));
        ClusterScenario.logProblems(label, r.problems(), killed);
        if (!settings.keepTables()) {
            system.drop(ClusterSystem.Part.RECURRING);
        }
        return r;
    }

    static long micros(Instant t) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, t);
    }
}
