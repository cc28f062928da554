package io.ax.bench.cluster;

import io.ax.bench.db.ServerCpu;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Part 1, the durable burst: {@code tasks} one-shot executions all due at one instant, drained by {@code n} nodes.
 * The nodes start first and form their cluster; then the parent writes the burst due a few seconds ahead (not timed),
 * analyzes the tables, and times from the due instant until every execution is done in the database (AX: SUCCESS;
 * db-scheduler: its row deleted), checked every 20 ms once the handlers have run them all.
 */
final class BurstPhase {

    /** What one round measured. */
    record Result(
            String system,
            int nodes,
            int tasks,
            long done,
            double seconds,
            double writeSeconds,
            double leadSeconds,
            double serverCpu,
            double nodeCpu,
            Map<String, Long> perNode,
            long handlerTwice,
            Audit.Checks checks,
            List<String> killedAtStop,
            Map<String, Integer> problems) {

        double perSecond() {
            return done / seconds;
        }

        boolean finished() {
            return done >= tasks;
        }

        /** Twice-run executions, by the handlers' keys and (AX) by the audit trail. */
        long duplicates() {
            return handlerTwice + (checks == null ? 0 : checks.duplicates());
        }
    }

    private final NodeProcesses processes;
    private final Settings settings;
    /** System -> how long its last burst took to write: the next lead is made from it. */
    private final Map<String, Double> lastWrite = new HashMap<>();

    BurstPhase(NodeProcesses processes, Settings settings) {
        this.processes = processes;
        this.settings = settings;
    }

    Result run(ClusterSystem system, int n) throws Exception {
        int tasks = settings.burstTasks();
        system.recreate(ClusterSystem.Part.BURST);
        List<String> args = new ArrayList<>(system.nodeArgs());
        args.addAll(settings.nodeArgs());
        args.add("--load=burst");
        args.add("--queue=" + tasks); // the whole burst fits: no rejections (as in the burst scenario)
        String label = "burst-" + Settings.slug(system.name()) + "-" + n + "n";
        ClusterScenario.log("%s: starting %d node(s)", label, n);
        NodeGroup group = NodeGroup.start(processes, label, Settings.ids(system, "", n), args);
        long done;
        double seconds;
        double write;
        double lead;
        double serverCpu;
        List<NodeGroup.Report> reports;
        long handlerTwice;
        List<String> killed;
        try {
            if (system instanceof AxCluster) {
                group.awaitJoined(Settings.JOIN);
            }
            // enough to write the burst and analyze before it is due: twice the last write of this system
            double estimate = lastWrite.getOrDefault(system.name(), tasks / 20_000.0);
            lead = Math.max(4, Math.ceil(2 * estimate)) + 2;
            Instant due = Instant.now().plusMillis((long) (lead * 1000)).truncatedTo(ChronoUnit.MILLIS);
            long dueNanos =
                    System.nanoTime() + Duration.between(Instant.now(), due).toNanos();
            long w0 = System.nanoTime();
            system.writeBurst(tasks, due);
            write = (System.nanoTime() - w0) / 1e9;
            lastWrite.put(system.name(), write);
            double spare = (dueNanos - System.nanoTime()) / 1e9;
            ClusterScenario.log(
                    "%s: %,d executions written and analyzed in %.2f s, %.2f s before they are due",
                    label, tasks, write, spare);
            sleepUntil(dueNanos - 100_000_000L);
            group.cut();
            sleepUntil(dueNanos);
            ServerCpu cpu = ServerCpu.start();
            long deadline = dueNanos + settings.maxSeconds() * 1_000_000_000L;
            long nextLog = dueNanos + 5_000_000_000L;
            long left = tasks;
            long end;
            while (true) {
                long now = System.nanoTime();
                long executed = group.executions();
                // the count query only once every handler ran: polling the store earlier would slow the system
                if (executed >= tasks && (left = system.burstLeft(tasks)) == 0) {
                    end = now;
                    break;
                }
                if (now > deadline) {
                    left = system.burstLeft(tasks);
                    end = now;
                    ClusterScenario.log("%s: not drained after %d s", label, settings.maxSeconds());
                    break;
                }
                if (now > nextLog) {
                    ClusterScenario.log(
                            "%s: %,d of %,d executed after %.0f s", label, executed, tasks, (now - dueNanos) / 1e9);
                    nextLog += 5_000_000_000L;
                }
                Thread.sleep(20);
            }
            seconds = (end - dueNanos) / 1e9;
            serverCpu = cpu.seconds();
            done = tasks - left;
            reports = group.report();
            ClusterScenario.logStoreCalls(label, reports);
            handlerTwice = group.duplicates();
        } finally {
            killed = group.stop();
        }
        Map<String, Long> perNode = new TreeMap<>();
        double nodeCpu = 0;
        for (NodeGroup.Report r : reports) {
            perNode.put(r.node(), r.executions());
            nodeCpu += r.cpuSeconds();
        }
        Audit.Checks checks = null;
        if (system instanceof AxCluster ax) {
            checks = new Audit(ax.jdbc(), ax.prefix()).check(0, Long.MAX_VALUE);
            perNode = checks.runningByNode();
        }
        Result r = new Result(
                system.name(),
                n,
                tasks,
                done,
                seconds,
                write,
                lead,
                serverCpu,
                nodeCpu,
                perNode,
                handlerTwice,
                checks,
                killed,
                NodeLogs.problems(group.logs()));
        ClusterScenario.log(
                "%s: %,d done in %.2f s = %,.0f/s; PostgreSQL CPU %.1f s, node JVMs CPU %.1f s; per node %s;"
                        + " run twice (handlers) %d%s",
                label,
                r.done(),
                r.seconds(),
                r.perSecond(),
                serverCpu,
                nodeCpu,
                perNode,
                handlerTwice,
                checks == null ? "" : "; audit " + checks);
        ClusterScenario.logProblems(label, r.problems(), killed);
        if (!settings.keepTables()) {
            system.drop(ClusterSystem.Part.BURST);
        }
        return r;
    }

    static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }
}
