package io.ax.bench.cluster;

import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.Scenario;
import io.ax.bench.db.Logging;
import io.ax.bench.db.Postgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How soon a node starts what the leader assigned it, by the kind of wake-up between the nodes (issue 14): AX on
 * {@code --nodes} node JVMs (3) over one PostgreSQL, under a moderate load of {@code --fires} fires a second (300;
 * that many tasks, each firing every second at its own phase, so the fires come evenly), one round per wake-up kind
 * ({@code --kinds}, by default all three): {@code redis} (Redis pub/sub), {@code postgres} ({@code LISTEN/NOTIFY})
 * and {@code poll} (none: each node finds its assignments by its poll). Acknowledgement latency (DISPATCHED to
 * RUNNING) comes from AX's audit trail, as in the {@code cluster} scenario; every round also checks that no execution
 * ran twice. Options: see {@link AckSettings}.
 */
public final class AckScenario implements Scenario {

    static final String SCHEMA = "bench_ack";

    @Override
    public ResultTable run(Options options) throws Exception {
        boolean axInfoLog = Logging.configure(options);
        System.setProperty("org.slf4j.simpleLogger.log.org.flywaydb", "warn");
        AckSettings s = AckSettings.of(options);
        String dir = options.get("log-dir", "");
        Path logDir = dir.isEmpty() ? Files.createTempDirectory("ax-ack-bench-") : Path.of(dir);
        ClusterScenario.log("node JVM logs go to %s", logDir.toAbsolutePath());
        List<AckRound.Result> results = new ArrayList<>();
        try (NodeProcesses processes = new NodeProcesses(logDir, s.jvmArgs());
                AxCluster ax = new AxCluster(new Postgres(options), SCHEMA)) {
            try {
                AckRound round = new AckRound(processes, s);
                for (AckSettings.Kind kind : s.kinds()) {
                    results.add(round.run(ax, kind));
                }
            } finally {
                if (!s.keepTables()) {
                    ax.dropSchema();
                }
            }
        }
        return AckTable.of(s, results, logDir, axInfoLog);
    }
}
