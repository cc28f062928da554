package io.ax.bench.cluster;

import io.ax.bench.LoadAverage;
import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.Scenario;
import io.ax.bench.db.Logging;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What one PERSISTENT execution costs the database: statements ({@code pg_stat_statements}), transactions, row
 * versions of the instance table, audit rows, WAL bytes and PostgreSQL CPU per execution, for a burst of executions
 * all due at once and for recurring cron series, on 1 and 3 nodes (each a JVM of its own, as the {@code cluster}
 * scenario runs them), AX beside db-scheduler. Counts do not depend on the machine's speed, so they can be taken on
 * a busy one; the CPU figures do. The scenario resets the server's {@code pg_stat_statements}: it wants a server of
 * its own ({@code --url}, required), which must preload the module. Rounds: see {@link CostRound}; options: see
 * {@link CostSettings}.
 */
public final class CostScenario implements Scenario {

    @Override
    public ResultTable run(Options options) throws Exception {
        Logging.configure(options);
        System.setProperty("org.slf4j.simpleLogger.log.org.flywaydb", "warn"); // a migration per round
        CostSettings s = CostSettings.of(options);
        double loadBefore = LoadAverage.now();
        // the server is checked first: a run it refuses leaves nothing behind
        try (CostProbe probe = CostProbe.connect(s.probeOptions())) {
            String dir = options.get("log-dir", "");
            Path logDir = dir.isEmpty() ? Files.createTempDirectory("ax-cost-bench-") : Path.of(dir);
            ClusterScenario.log("node JVM logs go to %s", logDir.toAbsolutePath());
            return run(s, probe, logDir, loadBefore);
        }
    }

    private static ResultTable run(CostSettings s, CostProbe probe, Path logDir, double loadBefore) throws Exception {
        List<CostRound.Result> results = new ArrayList<>();
        try (NodeProcesses processes = new NodeProcesses(logDir, s.jvmArgs())) {
            long postmaster = probe.postmaster();
            String version = probe.serverVersion();
            CostRound round = new CostRound(processes, s, probe, postmaster);
            for (int n : s.nodeCounts()) {
                for (String system : s.systems()) {
                    if (s.workloads().contains(CostSettings.BURST)) {
                        results.add(round.burst(system, n));
                    }
                    if (s.workloads().contains(CostSettings.RECURRING)) {
                        results.add(round.recurring(system, n));
                    }
                }
            }
            return CostTable.of(
                    s, results, new CostTable.Machine(version, postmaster, loadBefore, LoadAverage.now()), logDir);
        }
    }
}
