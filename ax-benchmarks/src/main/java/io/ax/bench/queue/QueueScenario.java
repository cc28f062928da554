package io.ax.bench.queue;

import io.ax.bench.LoadAverage;
import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.Scenario;
import io.ax.bench.cluster.NodeProcesses;
import io.ax.bench.db.Logging;
import io.ax.bench.db.Postgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A job queue on PostgreSQL, AX beside graphile-worker (the fastest PostgreSQL-backed queue with published figures):
 * a burst queued while no worker runs, then drained by one process and by two; queueing it in one call; and the wait
 * from adding a job to its handler's start at a steady rate, within one process and across two. Each side runs in
 * processes of its own (AX: an application with an engine, {@link QueueNode}, through the public API only:
 * {@code scheduleAll}, {@code schedule}; graphile-worker: Node.js with its documented high-performance settings), on
 * the same PostgreSQL, in rounds that alternate which side goes first. Every execution is durable on both sides, AX
 * with its audit trail at its default. Options: see {@link QueueSettings}.
 */
public final class QueueScenario implements Scenario {

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[queue] " + format + "%n", args);
    }

    @Override
    public ResultTable run(Options options) throws Exception {
        Logging.configure(options);
        System.setProperty("org.slf4j.simpleLogger.log.org.flywaydb", "warn"); // a migration per round
        QueueSettings s = QueueSettings.of(options);
        Postgres pg = new Postgres(options);
        List<QueueSide> sides = new ArrayList<>();
        if (s.sides().contains(QueueSettings.AX)) {
            sides.add(new QueueSide.Ax(pg, options, s.concurrency()));
        }
        if (s.sides().contains(QueueSettings.GRAPHILE)) {
            sides.add(new QueueSide.Graphile(pg, GraphileWorker.install(s.graphileDir()), options, s.concurrency()));
        }
        double loadBefore = LoadAverage.now();
        Path logDir = Files.createTempDirectory("ax-queue-bench-");
        log("process logs go to %s", logDir);
        List<QueueRounds.Drain> drains = new ArrayList<>();
        List<QueueRounds.Latency> latencies = new ArrayList<>();
        try (Connection probe =
                        DriverManager.getConnection(options.jdbcUrl(), options.jdbcUser(), options.jdbcPassword());
                NodeProcesses processes = new NodeProcesses(logDir, List.of("-Xmx1g"))) {
            QueueRounds rounds = new QueueRounds(processes, s, probe);
            for (int round = 1; round <= s.rounds(); round++) {
                // the side that goes first alternates: neither always meets the database as the other left it
                List<QueueSide> order = new ArrayList<>(sides);
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (int n = 1; n <= 2; n++) {
                    for (QueueSide side : order) {
                        drains.add(rounds.drain(side, n, round));
                    }
                }
                for (boolean across : new boolean[] {false, true}) {
                    for (QueueSide side : order) {
                        latencies.add(rounds.latency(side, across, round));
                    }
                }
            }
        } finally {
            for (QueueSide side : sides) {
                side.drop();
            }
        }
        return QueueTable.of(s, sides, drains, latencies, loadBefore, LoadAverage.now(), logDir);
    }
}
