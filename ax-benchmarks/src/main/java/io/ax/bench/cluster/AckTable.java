package io.ax.bench.cluster;

import io.ax.bench.LoadAverage;
import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Function;

/** The {@code ack} scenario's table: one column per wake-up kind, the first compared with the others; then notes. */
final class AckTable {

    private AckTable() {}

    static ResultTable of(AckSettings s, List<AckRound.Result> results, Path logDir, boolean axInfoLog) {
        List<String> columns = results.stream().map(r -> column(s, r.kind())).toList();
        ResultTable t = new ResultTable(
                String.format(
                        Locale.ROOT,
                        "Acknowledgement by wake-up kind: %d nodes, %d fires a second",
                        s.nodes(),
                        s.fires()),
                columns,
                columns.get(0));
        t.row("fires/s", "1/s", Better.HIGHER, values(s, results, AckRound.Result::firesPerSecond));
        t.row(
                "acknowledgement p50",
                "ms",
                Better.LOWER,
                values(s, results, r -> r.checks().ack().p50Millis()));
        t.row(
                "acknowledgement p99",
                "ms",
                Better.LOWER,
                values(s, results, r -> r.checks().ack().p99Millis()));
        t.row(
                "acknowledgement p50, assigned to another node",
                "ms",
                Better.LOWER,
                values(s, results, r -> r.checks().ack().remoteP50Millis()));
        t.row(
                "acknowledgement p99, assigned to another node",
                "ms",
                Better.LOWER,
                values(s, results, r -> r.checks().ack().remoteP99Millis()));
        t.row(
                "acknowledgement p50, the leader's own",
                "ms",
                Better.LOWER,
                values(s, results, r -> r.checks().ack().ownP50Millis()));
        t.row(
                "acknowledgement p99, the leader's own",
                "ms",
                Better.LOWER,
                values(s, results, r -> r.checks().ack().ownP99Millis()));
        t.row("wake-up hop alone p50 (probe)", "ms", Better.LOWER, values(s, results, r -> r.hopMillis(50)));
        t.row("wake-up hop alone p99 (probe)", "ms", Better.LOWER, values(s, results, r -> r.hopMillis(99)));
        t.text(
                "acknowledgements measured, of them assigned to another node",
                "count",
                texts(
                        s,
                        results,
                        r -> String.format(
                                Locale.ROOT,
                                "%,d / %,d",
                                r.checks().ack().count(),
                                r.checks().ack().remote())));
        t.row(
                "lateness p50 (handler start - fire time)",
                "ms",
                Better.LOWER,
                values(s, results, r -> r.latenessMillis(50)));
        t.row(
                "lateness p99 (handler start - fire time)",
                "ms",
                Better.LOWER,
                values(s, results, r -> r.latenessMillis(99)));
        t.text("executions run twice", "count", texts(s, results, r -> Long.toString(r.duplicates())));
        t.row("node JVMs' CPU", "s", Better.LOWER, values(s, results, AckRound.Result::nodeCpu));
        t.row("PostgreSQL server CPU", "s", Better.LOWER, values(s, results, AckRound.Result::serverCpu));
        t.text(
                "load average (1 min) during the window",
                "min-max",
                texts(s, results, r -> AckRound.loadRange(r.loadMin(), r.loadMax())));
        notes(t, s, results, logDir, axInfoLog);
        for (AckRound.Result r : results) {
            if (r.duplicates() > 0) {
                t.failure(r.kind().column + ": " + r.duplicates() + " executions ran twice");
            }
        }
        return t;
    }

    private static String column(AckSettings s, AckSettings.Kind kind) {
        return kind == AckSettings.Kind.POLL ? kind.column + " (" + s.pollMs() + " ms)" : kind.column;
    }

    private static Map<String, Double> values(
            AckSettings s, List<AckRound.Result> results, Function<AckRound.Result, Double> f) {
        Map<String, Double> out = new LinkedHashMap<>();
        results.forEach(r -> out.put(column(s, r.kind()), f.apply(r)));
        return out;
    }

    private static Map<String, String> texts(
            AckSettings s, List<AckRound.Result> results, Function<AckRound.Result, String> f) {
        Map<String, String> out = new LinkedHashMap<>();
        results.forEach(r -> out.put(column(s, r.kind()), f.apply(r)));
        return out;
    }

    private static void notes(
            ResultTable t, AckSettings s, List<AckRound.Result> results, Path logDir, boolean axInfoLog) {
        t.note(String.format(
                Locale.ROOT,
                "%d AX nodes, each a JVM of its own (-Xmx%s), on one PostgreSQL, all on this machine's %d cores with"
                        + " the benchmark JVM and Redis. Load: %d PERSISTENT tasks each firing every second at fixed"
                        + " rate, task i at i/%d of the second, so about %d fires a second come one by one; every"
                        + " handler is a no-op. One round per wake-up kind, each on fresh tables: %d s once the nodes"
                        + " formed their cluster, the first %d s left out.",
                s.nodes(),
                s.nodeHeap(),
                Runtime.getRuntime().availableProcessors(),
                s.fires(),
                s.fires(),
                s.fires(),
                s.seconds(),
                s.warmup()));
        t.note("Wake-ups: Redis pub/sub = AxRedis.wakeUps over a Lettuce connection factory, as the Redis"
                + " auto-configuration wires it, channel " + s.redisPrefix() + "events (PostgreSQL's LISTEN stays"
                + " open as its fallback but carries no signal while Redis answers); PostgreSQL LISTEN/NOTIFY = the"
                + " JDBC store's own wake-ups (the default without Redis); polling only = no wake-ups"
                + " (WakeUps.none()), so a node that does not lead finds its assignments only at its next poll. The"
                + " poll interval is " + s.pollMs() + " ms in every round"
                + (s.pollMs() == 500 ? " (AX's default)" : "")
                + ", and stays the safety net where there are wake-ups.");
        t.note("Acknowledgement: per attempt, the RUNNING audit row's at_us minus that of the DISPATCHED row before"
                + " it, both stamped on this one host's clock by the node that wrote them (the leader that assigned,"
                + " the owner that claimed), over the rows written in the window. A row's at_us is taken when its"
                + " change is made, before it is written. For an instance assigned to another node (about "
                + (s.nodes() - 1) + " in " + s.nodes() + ") that spans the leader's write of the assignment, the"
                + " wake-up (or the owner's next poll) and the owner's read of its DISPATCHED rows; its claim's write"
                + " comes after. The leader's own are claimed in the write group that assigns them: their figure is"
                + " only the time between making the two changes on the leader's dispatch thread (no database, no"
                + " wake-up). Wake-up hop alone: while the window ran, the benchmark JVM sent a message carrying its"
                + " send time every " + WakeProbe.EVERY_MILLIS + " ms on a channel of its own (Redis pub/sub"
                + " through Lettuce, or PostgreSQL NOTIFY over JDBC) and received it itself: the transport under"
                + " the same load, without AX's own publish and delivery threads. Lateness: handler start minus"
                + " fire time, recorded on each node (it adds the leader's time from fire to assignment).");
        t.note("Run twice: the handlers' keys (task and fire second) found more than once across the nodes, plus what"
                + " the audit trail says (RUNNING after RUNNING with no FAILED, TIMEOUT or SCHEDULED between, two"
                + " SERIES instances of one fire time, one fire time run by two instances).");
        t.note("The load average includes the run's own processes (" + s.nodes() + " node JVMs, PostgreSQL, Redis);"
                + " the benchmark JVM and its nodes ran at nice " + LoadAverage.niceness()
                + " (PostgreSQL and Redis at their own).");
        for (AckRound.Result r : results) {
            StringBuilder line = new StringBuilder(String.format(
                    Locale.ROOT,
                    "%s: per node %s; instances by state %s",
                    r.kind().column,
                    spread(r.checks().runningByNode()),
                    r.checks().states()));
            if (r.listeners() >= 0) {
                line.append(String.format(
                        Locale.ROOT,
                        "; %d connections subscribed to %sevents once the nodes formed their cluster",
                        r.listeners(),
                        s.redisPrefix()));
            }
            if (!r.killedAtStop().isEmpty()) {
                line.append("; did not stop when asked and were killed: ").append(r.killedAtStop());
            }
            int lines =
                    r.problems().values().stream().mapToInt(Integer::intValue).sum();
            if (lines > 0) {
                StringJoiner top = new StringJoiner("; ");
                r.problems().entrySet().stream()
                        .sorted((a, b) -> b.getValue() - a.getValue())
                        .limit(3)
                        .forEach(e -> top.add(e.getValue() + " x \"" + e.getKey() + "\""));
                line.append(String.format(Locale.ROOT, "; node logs: %d WARN/ERROR lines, most: %s", lines, top));
            }
            t.note(line.append('.').toString());
        }
        t.note(String.format(
                Locale.ROOT,
                "Configuration per node: %d worker threads, JdbcInstanceStore on a pool of %d connections, audit log"
                        + " on, cluster timing heartbeat 3 s, lease 10 s, acknowledgement 3 s, poll %d ms, 32 virtual"
                        + " nodes (the defaults but for the poll where set); %s. Node logs: %s.",
                s.threads(),
                AxNode.CONNECTIONS,
                s.pollMs(),
                axInfoLog ? "logger io.ax at INFO" : "logger io.ax at WARN (cluster membership at INFO)",
                logDir.toAbsolutePath()));
    }

    private static String spread(Map<String, Long> perNode) {
        StringJoiner j = new StringJoiner(", ");
        perNode.forEach((node, count) -> j.add(String.format(Locale.ROOT, "%s %,d", node, count)));
        return j.toString();
    }
}
