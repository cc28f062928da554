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
 * The nodes start first and form their cluster, then drain a warm-up burst (not timed; its rows are removed after):
 * a production node has compiled its hot paths long before a burst comes, and a burst of a few seconds would
 * otherwise measure each JVM's JIT compiler, which on a small machine takes the cores the database needs. Then the
 * parent writes the burst due a few seconds ahead (not timed), analyzes the tables, and times from the due instant
 * until every execution is done in the database (AX: SUCCESS; db-scheduler: its row deleted), checked every 20 ms once
 * the handlers have run them all.
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
    /** System -> how long its last burst took to write per execution: the next lead is made from it. */
    private final Map<String, Double> writePerExecution = new HashMap<>();

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
        Map<String, Long> warmedUp = new HashMap<>();
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
            int warm = settings.burstWarmup();
            if (warm > 0) {
                // numbered after the measured burst's executions: a key run twice is still found across both
                long dueNanos = writeAhead(system, label + " warm-up", tasks, warm);
                long unfinished = awaitDrained(system, group, label + " warm-up", warm, 0, dueNanos)[0];
                if (unfinished > 0) {
                    // its rows would count as the measured burst's: the round cannot go on
                    throw new IllegalStateException(label + ": the warm-up burst left " + unfinished + " unfinished");
                }
                system.clearBurst();
                for (NodeGroup.Report r : group.report()) {
                    warmedUp.put(r.node(), r.executions());
                }
            }
            long before = warmedUp.values().stream().mapToLong(Long::longValue).sum();
            long w0 = System.nanoTime();
            long dueNanos = writeAhead(system, label, 0, tasks);
            write = (System.nanoTime() - w0) / 1e9;
            lead = (dueNanos - w0) / 1e9;
            sleepUntil(dueNanos - 100_000_000L);
            group.cut();
            sleepUntil(dueNanos);
            ServerCpu cpu = ServerCpu.start();
            long[] drained = awaitDrained(system, group, label, tasks, before, dueNanos);
            long left = drained[0];
            long end = drained[1];
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
            perNode.put(r.node(), r.executions() - warmedUp.getOrDefault(r.node(), 0L));
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

    /**
     * Writes {@code count} executions numbered from {@code first}, due far enough ahead to write and analyze them
     * before: twice the last write of this system, by its time per execution.
     *
     * @return the {@link System#nanoTime()} they are due at
     */
    private long writeAhead(ClusterSystem system, String label, int first, int count) throws Exception {
        double estimate = writePerExecution.getOrDefault(system.name(), 1 / 20_000.0) * count;
        double lead = Math.max(4, Math.ceil(2 * estimate)) + 2;
        Instant due = Instant.now().plusMillis((long) (lead * 1000)).truncatedTo(ChronoUnit.MILLIS);
        long dueNanos = System.nanoTime() + Duration.between(Instant.now(), due).toNanos();
        long w0 = System.nanoTime();
        system.writeBurst(first, count, due);
        double write = (System.nanoTime() - w0) / 1e9;
        writePerExecution.put(system.name(), write / count);
        ClusterScenario.log(
                "%s: %,d executions written and analyzed in %.2f s, %.2f s before they are due",
                label, count, write, (dueNanos - System.nanoTime()) / 1e9);
        return dueNanos;
    }

    /**
     * Waits until the handlers ran {@code count} executions more than {@code before} and the store says none is left,
     * or until the round's time is up.
     *
     * @return executions left, and the {@link System#nanoTime()} the wait ended
     */
    private long[] awaitDrained(
            ClusterSystem system, NodeGroup group, String label, int count, long before, long dueNanos)
            throws Exception {
        long deadline = dueNanos + settings.maxSeconds() * 1_000_000_000L;
        long nextLog = dueNanos + 5_000_000_000L;
        while (true) {
            long now = System.nanoTime();
            long executed = group.executions() - before;
            long left;
            // the count query only once every handler ran: polling the store earlier would slow the system
            if (executed >= count && (left = system.burstLeft(count)) == 0) {
                return new long[] {0, now};
            }
            if (now > deadline) {
                ClusterScenario.log("%s: not drained after %d s", label, settings.maxSeconds());
                return new long[] {system.burstLeft(count), now};
            }
            if (now > nextLog) {
                ClusterScenario.log(
                        "%s: %,d of %,d executed after %.0f s", label, executed, count, (now - dueNanos) / 1e9);
                nextLog += 5_000_000_000L;
            }
            Thread.sleep(20);
        }
    }

    static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }
}
