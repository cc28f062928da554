package io.ax.bench.cluster;

import io.ax.bench.db.Postgres;
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
 * One round of the {@code cost} scenario: one system, one workload, one node count, on tables created for it. The
 * nodes start and (AX) form their cluster first, and warm up; then the counters are read before and after the
 * measured part ({@link CostProbe}), and the round's numbers are their difference.
 *
 * <ul>
 *   <li><b>burst</b>: after a warm-up burst (drained, its rows removed), an idle window (the nodes' background:
 *       heartbeats, polls), then {@code tasks} executions written by the benchmark JVM a few seconds before they are
 *       all due, drained until each is done in the database (AX: SUCCESS; db-scheduler: its row deleted).
 *       Statements, WAL and PostgreSQL CPU are read from before the write to the moment the last one was done (the
 *       write apart as well); transactions and table rows once the nodes stopped and every connection of the nodes
 *       and of the writer closed, since a backend reports them with a delay of up to some seconds, and at the latest
 *       when it exits.
 *   <li><b>recurring</b>: {@code rate} tasks due every second, after {@code warmup} seconds a window of {@code
 *       seconds} in their steady state; per execution = what the window cost / the executions it finished (AX:
 *       SUCCESS rows; db-scheduler: the nodes' handlers). Transactions and table rows are read at both ends of the
 *       window with the same reporting delay, which a steady load cancels.
 * </ul>
 */
final class CostRound {

    private static final Duration CLOSE = Duration.ofSeconds(30);
    /**
     * How long a backend may hold its table and transaction counters before it reports them: 10 s when it goes idle
     * with some unreported (PostgreSQL's PGSTAT_IDLE_INTERVAL), and a margin.
     */
    private static final Duration REPORTING_DELAY = Duration.ofSeconds(11);

    /**
     * What one round measured.
     *
     * @param executions executions finished in the measured part
     * @param due executions due in the measured part (recurring: tasks times the turns of the second in it); fewer
     *     finished than due says the system did not keep up, and then the figures per execution are not those of a
     *     steady state
     * @param seconds how long the measured part took (burst: from the start of the write to the last one done)
     * @param usage what the database did meanwhile (burst: the write included)
     * @param serverCpu PostgreSQL's CPU seconds meanwhile (its processes only)
     * @param write burst: the part of {@code usage} spent writing the executions; null for recurring
     * @param writeCpu burst: the PostgreSQL CPU seconds of the write
     * @param idle burst: the idle window before it; null for recurring
     * @param instanceTable the table of the executions (AX: {@code <prefix>instance}; db-scheduler: {@code
     *     scheduled_tasks})
     * @param auditTable AX's audit table; null for db-scheduler
     * @param perNode executions per node in the measured part
     * @param storeCalls AX: per node, its store's calls/rows/refused per method in the measured part
     */
    record Result(
            String system,
            String workload,
            int nodes,
            long executions,
            long due,
            double seconds,
            CostUsage usage,
            double serverCpu,
            CostUsage write,
            double writeCpu,
            Idle idle,
            String instanceTable,
            String auditTable,
            Map<String, Long> perNode,
            Map<String, String> storeCalls,
            List<String> killedAtStop,
            Map<String, Integer> problems) {}

    /** An idle window: the nodes up, nothing due. */
    record Idle(double seconds, CostUsage usage, double serverCpu) {}

    private final NodeProcesses processes;
    private final CostSettings settings;
    private final CostProbe probe;
    private final Postgres pg;
    private final long postmaster;
    /** System -> how long its last burst took to write per execution: the next lead is made from it. */
    private final Map<String, Double> writePerExecution = new HashMap<>();

    CostRound(NodeProcesses processes, CostSettings settings, CostProbe probe, long postmaster) {
        this.processes = processes;
        this.settings = settings;
        this.probe = probe;
        this.pg = new Postgres(settings.applicationOptions());
        this.postmaster = postmaster;
    }

    Result burst(String systemName, int n) throws Exception {
        int tasks = settings.burstTasks();
        int warm = settings.burstWarmup();
        ClusterSystem system = open(systemName);
        String schema = CostSchema.schema(system);
        String label = "cost-burst-" + Settings.slug(system.name()) + "-" + n + "n";
        NodeGroup group = null;
        List<String> killed = List.of();
        CostCounters beforeWrite;
        CostCounters written;
        CostCounters done;
        double writeCpu;
        double runCpu;
        double seconds;
        long finished;
        Idle idle;
        List<NodeGroup.Report> reports;
        Map<String, Long> warmedUp = new HashMap<>();
        try {
            system.recreate(ClusterSystem.Part.BURST);
            List<String> args = new ArrayList<>(system.nodeArgs());
            args.addAll(settings.nodeArgs());
            args.add("--load=burst");
            args.add("--queue=" + Math.max(tasks, warm));
            ClusterScenario.log("%s: starting %d node(s)", label, n);
            group = NodeGroup.start(processes, label, Settings.ids(system, "", n), args);
            if (system instanceof AxCluster) {
                group.awaitJoined(Settings.JOIN);
            }
            if (warm > 0) {
                // numbered after the measured burst's executions
                long due = writeAhead(system, label + " warm-up", tasks, warm);
                if (awaitBurstDone(system, group, label + " warm-up", warm, 0, due) < warm) {
                    throw new IllegalStateException(label + ": the warm-up burst did not finish");
                }
                system.clearBurst();
                for (NodeGroup.Report r : group.report()) {
                    warmedUp.put(r.node(), r.executions());
                }
            }
            long executedBefore =
                    warmedUp.values().stream().mapToLong(Long::longValue).sum();
            // the warm-up's table counters come in late: the idle window starts once they are in
            BurstPhase.sleepUntil(System.nanoTime() + REPORTING_DELAY.toNanos());
            probe.resetStatements();
            idle = idle(schema, label);

            beforeWrite = probe.read(schema);
            ServerCpu cpu = cpu();
            long w0 = System.nanoTime();
            long due = writeAhead(system, label, 0, tasks);
            written = probe.read(schema);
            writeCpu = cpu.seconds();
            BurstPhase.sleepUntil(due - 100_000_000L);
            group.cut();
            finished = awaitBurstDone(system, group, label, tasks, executedBefore, due);
            done = probe.read(schema);
            runCpu = cpu.seconds();
            seconds = (System.nanoTime() - w0) / 1e9;
            if (finished < tasks) {
                ClusterScenario.log("%s: only %,d of %,d done; per execution is per done one", label, finished, tasks);
            }
            reports = group.report();
            ClusterScenario.logStoreCalls(label, reports);
        } finally {
            if (group != null) {
                killed = group.stop();
            }
        }
        system.close(); // the writer's connections: their backends report their table counters as they exit
        probe.awaitClosed(CostSettings.NODE_APPLICATION, CLOSE);
        probe.awaitClosed(CostSettings.WRITER_APPLICATION, CLOSE);
        CostCounters closed = probe.read(schema);
        drop(system);
        Map<String, Long> perNode = new TreeMap<>();
        Map<String, String> storeCalls = new TreeMap<>();
        for (NodeGroup.Report r : reports) {
            perNode.put(r.node(), r.executions() - warmedUp.getOrDefault(r.node(), 0L));
            storeCalls.put(r.node(), r.storeCalls());
        }
        Result r = new Result(
                system.name(),
                CostSettings.BURST,
                n,
                finished,
                tasks,
                seconds,
                CostUsage.between(beforeWrite, done, closed),
                runCpu,
                CostUsage.between(beforeWrite, written),
                writeCpu,
                idle,
                CostSchema.instanceTable(system, ClusterSystem.Part.BURST),
                CostSchema.auditTable(system, ClusterSystem.Part.BURST),
                perNode,
                storeCalls,
                killed,
                NodeLogs.problems(group.logs()));
        logResult(label, r);
        return r;
    }

    Result recurring(String systemName, int n) throws Exception {
        int rate = settings.rate();
        ClusterSystem system = open(systemName);
        String schema = CostSchema.schema(system);
        String label = "cost-recurring-" + Settings.slug(system.name()) + "-" + n + "n";
        NodeGroup group = null;
        List<String> killed = List.of();
        CostUsage usage;
        double cpuSeconds;
        double seconds;
        long executions;
        long due;
        Map<String, Long> perNode = new TreeMap<>();
        Map<String, String> storeCalls = new TreeMap<>();
        try {
            system.recreate(ClusterSystem.Part.RECURRING);
            system.prepareRecurring(rate);
            List<String> args = new ArrayList<>(system.nodeArgs());
            args.addAll(settings.nodeArgs());
            args.add("--load=recurring");
            args.add("--tasks=" + rate);
            args.add("--queue=" + Math.max(20_000, rate));
            if (system instanceof DbSchedulerCluster dbs) {
                dbs.dueAtNextSecond();
            }
            ClusterScenario.log("%s: starting %d node(s) with %,d tasks each due every second", label, n, rate);
            group = NodeGroup.start(processes, label, Settings.ids(system, "", n), args);
            if (system instanceof AxCluster) {
                group.awaitJoined(Settings.JOIN);
                system.analyze(); // as the recurring scenario: statistics once the first rows are in
            }
            long t0 = System.nanoTime();
            BurstPhase.sleepUntil(t0 + settings.warmup() * 1_000_000_000L);
            // the fires come at the turn of each second: a window from half past to half past holds whole seconds
            BurstPhase.sleepUntil(System.nanoTime() + nanosToHalfPast(Instant.now()));
            long w0 = System.nanoTime();
            Instant fromWall = Instant.now();
            probe.resetStatements();
            group.cut();
            Map<String, Long> startedWith = new HashMap<>();
            for (NodeGroup.Report r : group.report()) {
                startedWith.put(r.node(), r.executions());
            }
            long doneBefore = CostSchema.recurringDone(probe, system, group);
            CostCounters from = probe.read(schema);
            ServerCpu cpu = cpu();
            for (int s = 5; s < settings.seconds(); s += 5) {
                BurstPhase.sleepUntil(w0 + s * 1_000_000_000L);
                ClusterScenario.log("%s: %d s of %d", label, s, settings.seconds());
            }
            BurstPhase.sleepUntil(w0 + settings.seconds() * 1_000_000_000L);
            Instant toWall = Instant.now();
            seconds = (System.nanoTime() - w0) / 1e9;
            CostCounters to = probe.read(schema);
            cpuSeconds = cpu.seconds();
            executions = CostSchema.recurringDone(probe, system, group) - doneBefore;
            due = (long) rate * (toWall.getEpochSecond() - fromWall.getEpochSecond());
            usage = CostUsage.between(from, to);
            List<NodeGroup.Report> reports = group.report();
            ClusterScenario.logStoreCalls(label, reports);
            for (NodeGroup.Report r : reports) {
                perNode.put(r.node(), r.executions() - startedWith.getOrDefault(r.node(), 0L));
                storeCalls.put(r.node(), r.storeCalls());
            }
        } finally {
            if (group != null) {
                killed = group.stop();
            }
            system.close();
        }
        probe.awaitClosed(CostSettings.NODE_APPLICATION, CLOSE);
        drop(system);
        Result r = new Result(
                system.name(),
                CostSettings.RECURRING,
                n,
                executions,
                due,
                seconds,
                usage,
                cpuSeconds,
                null,
                Double.NaN,
                null,
                CostSchema.instanceTable(system, ClusterSystem.Part.RECURRING),
                CostSchema.auditTable(system, ClusterSystem.Part.RECURRING),
                perNode,
                storeCalls,
                killed,
                NodeLogs.problems(group.logs()));
        logResult(label, r);
        return r;
    }

    /** The idle window: the nodes up and warm, nothing due. */
    private Idle idle(String schema, String label) throws Exception {
        CostCounters from = probe.read(schema);
        ServerCpu cpu = cpu();
        long t0 = System.nanoTime();
        BurstPhase.sleepUntil(t0 + settings.idleSeconds() * 1_000_000_000L);
        CostCounters to = probe.read(schema);
        Idle idle = new Idle((System.nanoTime() - t0) / 1e9, CostUsage.between(from, to), cpu.seconds());
        ClusterScenario.log(
                "%s: idle %.1f s: %,d statements, %,d WAL bytes, %,d transactions",
                label,
                idle.seconds(),
                idle.usage().calls(),
                idle.usage().walBytes(),
                idle.usage().commits());
        return idle;
    }

    /** From {@code now} to the next half past a second of the wall clock. */
    static long nanosToHalfPast(Instant now) {
        long into = now.getNano();
        return into < 500_000_000L ? 500_000_000L - into : 1_500_000_000L - into;
    }

    private ServerCpu cpu() {
        return postmaster > 0 ? ServerCpu.start(postmaster) : ServerCpu.start();
    }

    /** The system's tables, created empty for this round. */
    private ClusterSystem open(String name) throws Exception {
        return name.equals(ClusterScenario.AX) ? new AxCluster(pg, CostSchema.AX_SCHEMA) : new DbSchedulerCluster(pg);
    }

    private void drop(ClusterSystem system) throws Exception {
        if (!settings.keepTables()) {
            pg.dropSchema(CostSchema.schema(system));
        }
    }

    /**
     * Writes {@code count} executions numbered from {@code first}, due far enough ahead to write and analyze them
     * before: three times the last write of this system, by its time per execution.
     *
     * @return the {@link System#nanoTime()} they are due at
     */
    private long writeAhead(ClusterSystem system, String label, int first, int count) throws Exception {
        double estimate = writePerExecution.getOrDefault(system.name(), 1 / 5_000.0) * count;
        double lead = Math.max(3, Math.ceil(3 * estimate)) + 1;
        Instant due = Instant.now().plusMillis((long) (lead * 1000)).truncatedTo(ChronoUnit.MILLIS);
        long dueNanos = System.nanoTime() + Duration.between(Instant.now(), due).toNanos();
        long w0 = System.nanoTime();
        system.writeBurst(first, count, due);
        double write = (System.nanoTime() - w0) / 1e9;
        writePerExecution.put(system.name(), write / count);
        double ahead = (dueNanos - System.nanoTime()) / 1e9;
        ClusterScenario.log(
                "%s: %,d executions written and analyzed in %.2f s, %.2f s before they are due%s",
                label, count, write, ahead, ahead < 0 ? " (late: some ran during the write)" : "");
        return dueNanos;
    }

    /**
     * Waits until the handlers ran {@code count} executions more than {@code before} and the database says all are
     * done, or until the round's time is up.
     *
     * @return how many are done in the database
     */
    private long awaitBurstDone(
            ClusterSystem system, NodeGroup group, String label, int count, long before, long dueNanos)
            throws Exception {
        long deadline = dueNanos + settings.maxSeconds() * 1_000_000_000L;
        long nextLog = dueNanos + 5_000_000_000L;
        while (true) {
            long now = System.nanoTime();
            long executed = group.executions() - before;
            // the database only once every handler ran: polling it earlier would add to what is measured
            if (executed >= count && CostSchema.burstDone(probe, system, count) >= count) {
                return count;
            }
            if (now > deadline) {
                ClusterScenario.log("%s: not done after %d s", label, settings.maxSeconds());
                return CostSchema.burstDone(probe, system, count);
            }
            if (now > nextLog) {
                ClusterScenario.log(
                        "%s: %,d of %,d executed after %.0f s", label, executed, count, (now - dueNanos) / 1e9);
                nextLog += 5_000_000_000L;
            }
            Thread.sleep(20);
        }
    }

    private static void logResult(String label, Result r) {
        double e = Math.max(1, r.executions());
        ClusterScenario.log(
                "%s: %,d executions in %.1f s: %.2f statements, %.2f transactions, %.0f WAL bytes, %.0f µs"
                        + " PostgreSQL CPU per execution; per node %s",
                label,
                r.executions(),
                r.seconds(),
                r.usage().calls() / e,
                r.usage().commits() / e,
                r.usage().walBytes() / e,
                r.serverCpu() * 1e6 / e,
                r.perNode());
        ClusterScenario.logProblems(label, r.problems(), r.killedAtStop());
    }
}
