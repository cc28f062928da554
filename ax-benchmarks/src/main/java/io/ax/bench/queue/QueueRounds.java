package io.ax.bench.queue;

import io.ax.bench.cluster.Node;
import io.ax.bench.cluster.NodeProcesses;
import io.ax.bench.db.ServerCpu;
import io.ax.bench.db.WalPosition;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rounds of the {@code queue} scenario, each on fresh processes and an empty schema: a queued burst drained by one
 * or two processes, and the wait from adding a job to its handler's start at a steady rate, within one process and
 * across two. The database is measured around each step (PostgreSQL's CPU from {@code /proc}, WAL from {@code
 * pg_current_wal_lsn()}); the systems under test are not asked anything while they drain but their handlers' counts
 * (over stdin), and the database once when every handler has run ("is any job left?"), again every 20 ms until none
 * is.
 */
final class QueueRounds {

    private static final Duration READY = Duration.ofSeconds(90);
    private static final Duration ANSWER = Duration.ofSeconds(120);
    private static final long POLL_MILLIS = 20;

    /** What a drain round measured; CPU in seconds, WAL in bytes. */
    record Drain(
            String side,
            int processes,
            int jobs,
            double queueSeconds,
            double queueServerCpu,
            long queueWal,
            double drainSeconds,
            double drainServerCpu,
            long drainWal,
            double workerCpu,
            long executions,
            long left) {

        double perSecond() {
            return jobs / drainSeconds;
        }
    }

    /** What a latency round measured, in milliseconds. */
    record Latency(
            String side, boolean acrossProcesses, long count, long expected, double p50, double p99, double max) {}

    private final NodeProcesses processes;
    private final QueueSettings settings;
    private final Connection probe;
    private final long postmaster;

    QueueRounds(NodeProcesses processes, QueueSettings settings, Connection probe) throws SQLException {
        this.processes = processes;
        this.settings = settings;
        this.probe = probe;
        this.postmaster = ServerCpu.postmasterOf(Long.parseLong(text("SELECT pg_backend_pid()")));
    }

    Drain drain(QueueSide side, int n, int round) throws Exception {
        side.recreate();
        String label = "drain-" + slug(side) + "-" + n + "p-r" + round;
        List<Node> nodes = startAll(side, label, n);
        try {
            int warm = settings.warmup();
            if (warm > 0) {
                ask(nodes.get(0), "QUEUE " + warm + " " + settings.jobs());
                sendAll(nodes, "START");
                awaitDone(side, nodes, warm, label + " warm-up");
                sendAll(nodes, "END");
                side.clearFinished();
            }
            side.pg.analyze(side.schema);
            long wal0 = lsn();
            ServerCpu queueCpu = ServerCpu.start(postmaster);
            double queueSeconds = Double.parseDouble(
                    ask(nodes.get(0), "QUEUE " + settings.jobs() + " 0").get("seconds"));
            double queueServerCpu = queueCpu.seconds();
            long wal1 = lsn();
            // a database in service would have its statistics for so many new rows by the time a worker starts
            side.pg.analyze(side.schema);
            long wal2 = lsn();
            ServerCpu drainCpu = ServerCpu.start(postmaster);
            long t0 = System.nanoTime();
            sendAll(nodes, "START");
            long left = awaitDone(side, nodes, settings.jobs(), label);
            double seconds = (System.nanoTime() - t0) / 1e9;
            double drainServerCpu = drainCpu.seconds();
            long wal3 = lsn();
            double workerCpu = 0;
            long executions = 0;
            for (Map<String, String> end : sendAll(nodes, "END")) {
                workerCpu += Double.parseDouble(end.get("cpu"));
                executions += Long.parseLong(end.get("executions"));
            }
            Drain d = new Drain(
                    side.name(),
                    n,
                    settings.jobs(),
                    queueSeconds,
                    queueServerCpu,
                    wal1 - wal0,
                    seconds,
                    drainServerCpu,
                    wal3 - wal2,
                    workerCpu,
                    executions,
                    left);
            QueueScenario.log(
                    "%s: queued %,d in %.2f s; drained in %.2f s = %,.0f/s; PostgreSQL CPU %.2f + %.2f s,"
                            + " WAL %,d + %,d bytes (%s..%s, %s..%s), worker CPU %.2f s; %,d executions, %,d left",
                    label,
                    d.jobs(),
                    queueSeconds,
                    seconds,
                    d.perSecond(),
                    queueServerCpu,
                    drainServerCpu,
                    d.queueWal(),
                    d.drainWal(),
                    lsnText(wal0),
                    lsnText(wal1),
                    lsnText(wal2),
                    lsnText(wal3),
                    workerCpu,
                    executions,
                    left);
            return d;
        } finally {
            processes.stopAll(nodes, Duration.ofSeconds(30));
        }
    }

    Latency latency(QueueSide side, boolean across, int round) throws Exception {
        side.recreate();
        String label = "latency-" + slug(side) + (across ? "-across" : "-within") + "-r" + round;
        List<Node> nodes = startAll(side, label, across ? 2 : 1);
        Node worker = nodes.get(0);
        Node producer = nodes.get(nodes.size() - 1);
        try {
            ask(worker, "START");
            int rate = settings.rate();
            // a warm-up at the same rate, its waits left out
            produce(producer, worker, rate, settings.latencyWarmupSeconds());
            ask(worker, "LATENCY");
            long expected = produce(producer, worker, rate, settings.latencySeconds());
            Map<String, String> l = ask(worker, "LATENCY");
            ask(worker, "END");
            Latency result = new Latency(
                    side.name(),
                    across,
                    Long.parseLong(l.get("count")),
                    expected,
                    Double.parseDouble(l.get("p50")),
                    Double.parseDouble(l.get("p99")),
                    Double.parseDouble(l.get("max")));
            QueueScenario.log(
                    "%s: %,d jobs at %d/s, added -> handler start p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                    label, result.count(), rate, result.p50(), result.p99(), result.max());
            return result;
        } finally {
            processes.stopAll(nodes, Duration.ofSeconds(30));
        }
    }

    /** Adds jobs at {@code rate} for {@code seconds} and waits, bounded, until the worker ran them all. */
    private long produce(Node producer, Node worker, int rate, int seconds) throws Exception {
        long before = Long.parseLong(ask(worker, "COUNT").get("executions"));
        long count =
                Long.parseLong(ask(producer, "PRODUCE " + rate + " " + seconds).get("count"));
        long deadline = System.nanoTime() + settings.maxSeconds() * 1_000_000_000L;
        while (Long.parseLong(ask(worker, "COUNT").get("executions")) - before < count
                && System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS);
        }
        return count;
    }

    private List<Node> startAll(QueueSide side, String label, int n) throws Exception {
        List<Node> nodes = new ArrayList<>();
        try {
            for (int i = 1; i <= n; i++) {
                nodes.add(side.start(processes, label + "-p" + i, "q" + i));
            }
            for (Node node : nodes) {
                node.awaitReady(READY);
            }
            return nodes;
        } catch (Exception | Error e) {
            processes.stopAll(nodes, Duration.ofSeconds(10));
            throw e;
        }
    }

    /**
     * Waits until the handlers ran {@code count} jobs (asked over stdin every 20 ms), then until the database holds
     * none not done, or until the round's time is up.
     *
     * @return jobs left in the database
     */
    private long awaitDone(QueueSide side, List<Node> nodes, int count, String label) throws Exception {
        long deadline = System.nanoTime() + settings.maxSeconds() * 1_000_000_000L;
        long nextLog = System.nanoTime() + 10_000_000_000L;
        while (true) {
            long executed = 0;
            for (Map<String, String> c : sendAll(nodes, "COUNT")) {
                executed += Long.parseLong(c.get("executions"));
            }
            long left;
            if (executed >= count && (left = side.left()) == 0) {
                return 0;
            }
            if (System.nanoTime() > deadline) {
                QueueScenario.log(
                        "%s: not done after %d s (%,d of %,d run)", label, settings.maxSeconds(), executed, count);
                return side.left();
            }
            if (System.nanoTime() > nextLog) {
                QueueScenario.log("%s: %,d of %,d run", label, executed, count);
                nextLog += 10_000_000_000L;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** Sends {@code command} to every node at once, then collects the answers in order. */
    private static List<Map<String, String>> sendAll(List<Node> nodes, String command) throws Exception {
        for (Node node : nodes) {
            node.send(command);
        }
        List<Map<String, String>> answers = new ArrayList<>();
        for (Node node : nodes) {
            answers.add(node.answerTo(command, ANSWER));
        }
        return answers;
    }

    private static Map<String, String> ask(Node node, String command) throws Exception {
        return node.ask(command, ANSWER);
    }

    private long lsn() throws SQLException {
        return WalPosition.parse(text("SELECT pg_current_wal_lsn()::text"));
    }

    /** As PostgreSQL prints it, for a look with {@code pg_walinspect} afterwards. */
    private static String lsnText(long lsn) {
        return Long.toHexString(lsn >>> 32).toUpperCase(Locale.ROOT) + "/"
                + Long.toHexString(lsn & 0xFFFF_FFFFL).toUpperCase(Locale.ROOT);
    }

    private String text(String sql) throws SQLException {
        try (Statement s = probe.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }

    private static String slug(QueueSide side) {
        return side.name().startsWith("AX") ? "ax" : "graphile";
    }
}
