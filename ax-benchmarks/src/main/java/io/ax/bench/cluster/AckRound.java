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
     * @param hops the wake-up transport alone over the window ({@link WakeProbe}, microseconds); null without
     *     wake-ups
     * @param listeners Redis: the connections subscribed to the nodes' wake-up channel once they formed their
     *     cluster; -1 where not known
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
            Histogram hops,
            long listeners,
            List<String> killedAtStop,
            Map<String, Integer> problems) {

        double firesPerSecond() {
            return fires / window;
        }

        double hopMillis(double percentile) {
            return hops == null || hops.getTotalCount() == 0
                    ? Double.NaN
                    : hops.getValueAtPercentile(percentile) / 1000.0;
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
        WakeProbe probe = probe(kind);
        NodeGroup group;
        try {
            group = NodeGroup.start(processes, label, Settings.ids(ax, "", settings.nodes()), args);
        } catch (Exception | Error e) {
            if (probe != null) {
                probe.close();
            }
            throw e;
        }
        List<NodeGroup.Report> reports;
        long handlerTwice;
        Instant from;
        Instant to;
        double window;
        double serverCpu;
        double loadMin = Double.MAX_VALUE;
        double loadMax = 0;
        Histogram hops = null;
        long listeners = -1;
        List<String> killed;
        try {
            group.awaitJoined(Settings.JOIN);
            if (probe != null) {
                listeners = probe.listeners(settings.redisPrefix() + "events");
            }
            ax.analyze();
            long t0 = System.nanoTime();
            BurstPhase.sleepUntil(t0 + settings.warmup() * 1_000_000_000L);
            group.cut();
            if (probe != null) {
                probe.cut();
            }
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
            if (probe != null) {
                hops = probe.hops();
            }
            serverCpu = cpu.seconds();
            window = (System.nanoTime() - windowStart) / 1e9;
            to = Instant.now();
            handlerTwice = group.duplicates();
        } finally {
            killed = group.stop();
            if (probe != null) {
                probe.close();
            }
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
                hops,
                listeners,
                killed,
                NodeLogs.problems(group.logs()));
        Audit.Ack a = checks.ack();
        ClusterScenario.log(
                "%s: %,.0f fires/s; acknowledgement p50 %.1f ms p99 %.1f ms (%,d), assigned to another node p50 %.1f"
                        + " ms p99 %.1f ms (%,d); lateness p50 %.1f ms p99 %.1f ms; node JVMs CPU %.1f s, PostgreSQL"
                        + " CPU %.1f s; load average %.2f-%.2f; wake-up hop alone p50 %.2f ms p99 %.2f ms; run twice"
                        + " (handlers) %d; audit %s",
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
                r.hopMillis(50),
                r.hopMillis(99),
                handlerTwice,
                checks);
        ClusterScenario.logProblems(label, r.problems(), killed);
        if (!settings.keepTables()) {
            ax.drop(ClusterSystem.Part.ACK);
        }
        return r;
    }

    /** The probe of the round's wake-up transport, started; null for polling only. */
    private WakeProbe probe(AckSettings.Kind kind) throws java.sql.SQLException {
        var o = settings.options();
        return switch (kind) {
            case REDIS ->
                WakeProbe.redis(
                        o.get("redis-host", "127.0.0.1"),
                        Integer.parseInt(o.get("redis-port", "6379")),
                        settings.redisPrefix());
            case POSTGRES -> WakeProbe.postgres(o.jdbcUrl(), o.jdbcUser(), o.jdbcPassword());
            case POLL -> null;
        };
    }

    static String loadRange(double min, double max) {
        return String.format(Locale.ROOT, "%.1f-%.1f", min, max);
    }
}
