package io.ax.bench.cluster;

import io.ax.bench.LoadAverage;
import io.ax.bench.db.ServerCpu;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One round of the {@code ack} scenario: fresh tables, the nodes started with one kind of wake-up and the spread load
 * of {@code fires} tasks each firing every second, left to run {@code seconds} once they formed their cluster, the
 * first {@code warmup} left out; then the audit trail read over the window and the handlers' keys compared.
 */
final class AckRound {

    /**
     * What one round measured.
     *
     * @param fires executions that started in the window, over all nodes
     * @param window its length in seconds
     * @param lateness handler start minus fire time, every node's
     * @param loadMin the smallest 1-minute load average read during the window (every 5 s)
     * @param loadMax the largest
     */
    record Result(
            AckSettings.Kind kind,
            long fires,
            double window,
            Histogram lateness,
            double nodeCpu,
            double serverCpu,
            long handlerTwice,
            Audit.Checks checks,
            double loadMin,
            double loadMax,
            List<String> killedAtStop,
            Map<String, Integer> problems) {

        double firesPerSecond() {
            return fires / window;
        }

        double latenessMillis(double percentile) {
            return lateness.getTotalCount() == 0 ? Double.NaN : lateness.getValueAtPercentile(percentile) / 1000.0;
        }

        long duplicates() {
            return handlerTwice + checks.duplicates();
        }
    }

    private final NodeProcesses processes;
    private final AckSettings settings;

    AckRound(NodeProcesses processes, AckSettings settings) {
        this.processes = processes;
        this.settings = settings;
    }

    Result run(AxCluster ax, AckSettings.Kind kind) throws Exception {
        ax.recreate(ClusterSystem.Part.ACK);
        List<String> args = new ArrayList<>(ax.nodeArgs());
        args.addAll(settings.nodeArgs(kind));
        String label = "ack-" + kind.option;
        ClusterScenario.log(
                "%s: starting %d nodes, %d tasks each firing every second, wake-ups: %s",
                label, settings.nodes(), settings.fires(), kind.column);
        NodeGroup group = NodeGroup.start(processes, label, Settings.ids(ax, "", settings.nodes()), args);
        List<NodeGroup.Report> reports;
        long handlerTwice;
        Instant from;
        Instant to;
        double window;
        double serverCpu;
        double loadMin = Double.MAX_VALUE;
        double loadMax = 0;
        List<String> killed;
        try {
            group.awaitJoined(Settings.JOIN);
            ax.analyze();
            long t0 = System.nanoTime();
            BurstPhase.sleepUntil(t0 + settings.warmup() * 1_000_000_000L);
            group.cut();
            from = Instant.now();
            long windowStart = System.nanoTime();
            long before = group.executions();
            ServerCpu cpu = ServerCpu.start();
            for (int s = settings.warmup(); s < settings.seconds(); s += 5) {
                BurstPhase.sleepUntil(t0 + s * 1_000_000_000L);
                double load = LoadAverage.now();
                loadMin = Math.min(loadMin, load);
                loadMax = Math.max(loadMax, load);
                if (s > settings.warmup()) {
                    ClusterScenario.log(
                            "%s: %d s, %,d fires in the window, load average %.2f",
                            label, s, group.executions() - before, load);
                }
            }
            BurstPhase.sleepUntil(t0 + settings.seconds() * 1_000_000_000L);
            reports = group.report();
            serverCpu = cpu.seconds();
            window = (System.nanoTime() - windowStart) / 1e9;
            to = Instant.now();
            handlerTwice = group.duplicates();
        } finally {
            killed = group.stop();
        }
        Histogram lateness = new Histogram(3);
        double nodeCpu = 0;
        for (NodeGroup.Report r : reports) {
            lateness.add(r.lateness());
            nodeCpu += r.cpuSeconds();
        }
        Audit.Checks checks =
                new Audit(ax.jdbc(), ax.prefix()).check(RecurringPhase.micros(from), RecurringPhase.micros(to));
        Result r = new Result(
                kind,
                lateness.getTotalCount(),
                window,
                lateness,
                nodeCpu,
                serverCpu,
                handlerTwice,
                checks,
                loadMin,
                loadMax,
                killed,
                NodeLogs.problems(group.logs()));
        Audit.Ack a = checks.ack();
        ClusterScenario.log(
                "%s: %,.0f fires/s; acknowledgement p50 %.1f ms p99 %.1f ms (%,d), assigned to another node p50 %.1f"
                        + " ms p99 %.1f ms (%,d); lateness p50 %.1f ms p99 %.1f ms; node JVMs CPU %.1f s, PostgreSQL"
                        + " CPU %.1f s; load average %.2f-%.2f; run twice (handlers) %d; audit %s",
                label,
                r.firesPerSecond(),
                a.p50Millis(),
                a.p99Millis(),
                a.count(),
                a.remoteP50Millis(),
                a.remoteP99Millis(),
                a.remote(),
                r.latenessMillis(50),
                r.latenessMillis(99),
                nodeCpu,
                serverCpu,
                loadMin,
                loadMax,
                handlerTwice,
                checks);
        ClusterScenario.logProblems(label, r.problems(), killed);
        if (!settings.keepTables()) {
            ax.drop(ClusterSystem.Part.ACK);
        }
        return r;
    }

    static String loadRange(double min, double max) {
        return String.format(Locale.ROOT, "%.1f-%.1f", min, max);
    }
}
