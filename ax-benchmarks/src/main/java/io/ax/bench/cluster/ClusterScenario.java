package io.ax.bench.cluster;

import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.Scenario;
import io.ax.bench.db.Logging;
import io.ax.bench.db.Postgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * AX as a cluster of node JVMs beside db-scheduler with as many nodes, on one PostgreSQL: a durable burst drained by
 * 1, 2 and 3 nodes, a recurring load of 10,000 fires a second on as many, and (AX only) the time a new leader takes
 * over after the leader's JVM is killed. Every node is a JVM of its own, started by this one ({@link NodeProcesses});
 * the parent writes the work, watches the database and asks the nodes what they ran. Last (AX only), how many
 * partitions move as nodes join and leave, and how long a killed node's partitions take to be owned again ({@link
 * PartitionPhase}). Options: see {@link Settings}.
 */
public final class ClusterScenario implements Scenario {

    static final String AX = "AX";
    static final String DBS = "db-scheduler";

    @Override
    public ResultTable run(Options options) throws Exception {
        boolean axInfoLog = Logging.configure(options);
        System.setProperty("org.slf4j.simpleLogger.log.org.flywaydb", "warn"); // a migration per round
        Settings s = Settings.of(options);
        Postgres pg = new Postgres(options);
        String dir = options.get("log-dir", "");
        Path logDir = dir.isEmpty() ? Files.createTempDirectory("ax-cluster-bench-") : Path.of(dir);
        log("node JVM logs go to %s", logDir.toAbsolutePath());
        Map<Integer, Map<String, BurstPhase.Result>> bursts = new LinkedHashMap<>();
        Map<Integer, Map<String, RecurringPhase.Result>> recurring = new LinkedHashMap<>();
        FailoverPhase.Result failover = null;
        PartitionPhase.Result partitions = null;
        try (NodeProcesses processes = new NodeProcesses(logDir, s.jvmArgs());
                AxCluster ax = new AxCluster(pg, s.burstWakeUps(), s.limit().equals("mutex"));
                DbSchedulerCluster dbs = new DbSchedulerCluster(pg)) {
            List<ClusterSystem> systems = new ArrayList<>();
            if (s.systems().contains(AX)) {
                systems.add(ax);
            }
            if (s.systems().contains(DBS)) {
                systems.add(dbs);
            }
            try {
                if (s.parts().contains("burst")) {
                    BurstPhase phase = new BurstPhase(processes, s);
                    for (int n : s.nodeCounts()) {
                        for (ClusterSystem system : systems) {
                            bursts.computeIfAbsent(n, k -> new LinkedHashMap<>())
                                    .put(system.name(), phase.run(system, n));
                        }
                    }
                }
                if (s.parts().contains("recurring")) {
                    RecurringPhase phase = new RecurringPhase(processes, s);
                    for (int n : s.nodeCounts()) {
                        for (ClusterSystem system : systems) {
                            recurring
                                    .computeIfAbsent(n, k -> new LinkedHashMap<>())
                                    .put(system.name(), phase.run(system, n));
                        }
                    }
                }
                if (s.parts().contains("failover") && s.systems().contains(AX)) {
                    failover = new FailoverPhase(processes, s).run(ax);
                }
                if (s.parts().contains("partitions") && s.systems().contains(AX)) {
                    partitions = new PartitionPhase(processes, s).run(ax);
                }
            } finally {
                if (!s.keepTables()) {
                    ax.dropSchema();
                    dbs.drop(ClusterSystem.Part.BURST);
                }
            }
        }
        return ClusterTable.of(s, bursts, recurring, failover, partitions, logDir, axInfoLog);
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[cluster] " + format + "%n", args);
    }

    /** Prints what each AX node asked of its store over the measured window (calls/rows/refused per method). */
    static void logStoreCalls(String label, List<NodeGroup.Report> reports) {
        for (NodeGroup.Report r : reports) {
            if (!r.storeCalls().equals("-")) {
                log("%s: %s store calls/rows/refused in the window: %s", label, r.node(), r.storeCalls());
            }
        }
    }

    /** Prints what went wrong in a round's node logs, and which nodes did not stop when asked. */
    static void logProblems(String label, Map<String, Integer> problems, List<String> killedAtStop) {
        if (!killedAtStop.isEmpty()) {
            log("%s: node(s) %s did not stop within the time allowed and were killed", label, killedAtStop);
        }
        problems.forEach((message, count) -> log("%s: node logs: %d x %s", label, count, message));
    }
}
