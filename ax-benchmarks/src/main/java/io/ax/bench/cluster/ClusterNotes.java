package io.ax.bench.cluster;

import io.ax.bench.ResultTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/** The notes under the scenario's table: how each part was measured, and what each round left behind. */
final class ClusterNotes {

    private ClusterNotes() {}

    static void add(
            ResultTable t,
            Settings s,
            Map<Integer, Map<String, BurstPhase.Result>> bursts,
            Map<Integer, Map<String, RecurringPhase.Result>> recurring,
            FailoverPhase.Result failover,
            PartitionPhase.Result partitions,
            Path logDir,
            boolean axInfoLog) {
        List<String> rounds = new ArrayList<>();
        bursts.forEach((n, r) -> r.values().forEach(x -> rounds.add(burstRound(x))));
        recurring.forEach((n, r) -> r.values().forEach(x -> rounds.add(recurringRound(x))));
        if (failover != null) {
            rounds.add(failoverRound(failover));
        }
        if (partitions != null) {
            rounds.add(partitionRound(partitions));
        }
        t.note(String.format(
                Locale.ROOT,
                "Every node is a JVM of its own (java %s -cp ax-benchmarks.jar io.ax.bench.cluster.ClusterNode),"
                        + " started by the benchmark JVM; nodes, benchmark and PostgreSQL share this machine's %d"
                        + " cores, so with more nodes the same cores run more JVMs: more nodes add no CPU here.",
                String.join(" ", s.jvmArgs()),
                Runtime.getRuntime().availableProcessors()));
        t.note(String.format(
                Locale.ROOT,
                "Burst: %,d one-shot %s executions all due at one instant, written by the benchmark JVM once the"
                        + " nodes had formed their cluster and drained a warm-up burst of %,d (not timed, its rows"
                        + " removed after; without it a burst of a few seconds measures each node JVM's JIT compiler,"
                        + " which takes the cores the database needs), a few seconds ahead of that instant (not timed; AX:"
                        + " JdbcInstanceStore.schedule of SCHEDULED instances of one concurrent task, origin DELAYED,"
                        + " each with its CREATED and SCHEDULED audit rows; db-scheduler: scheduleBatch of a"
                        + " OneTimeTask), then ANALYZE. Timed from the due instant until every execution is done in"
                        + " the database (AX: SUCCESS; db-scheduler: its row deleted), checked every 20 ms once the"
                        + " nodes' handlers had run them all. %s; each db-scheduler node polls the table itself. Node"
                        + " CPU = process CPU time of the node JVMs over the drain (JIT and GC included). %s",
                s.burstTasks(),
                s.workMs() == 0
                        ? "no-op"
                        : "working (each handler sleeps " + s.workMs() + " ms, as one that waits for I/O)",
                s.burstWarmup(),
                s.burstWakeUps()
                        ? "Once it is written, the writer wakes AX's nodes as an AX node's scheduleAll does (a NOTIFY,"
                                + " WakeUps.LEADER), and each loads what falls in its partitions into its wheel before"
                                + " it is due, and runs it itself (no instance is assigned to another node)"
                        : "The writer wakes no AX node (--burst-wake-ups=false): each finds what another process"
                                + " wrote in its partitions inside its prefetch window (due within 60 s) with its"
                                + " sweep for overdue instances, about a second after it falls due, and runs it itself"
                                + " (no instance is assigned to another node)",
                limitNote(s.limit(), s.permits())));
        t.note(String.format(
                Locale.ROOT,
                "Recurring: %,d tasks each due every second (AX: one shared cron trigger `* * * * * ?`, PERSISTENT;"
                        + " db-scheduler: one RecurringTask `* * * * * *` with a row per task), registered on every"
                        + " node; %d s per round once the nodes formed their cluster, the first %d s left out. fires/s"
                        + " = executions that started in the window / its length; achieved = those / the fires due"
                        + " in the window; lateness = handler start - fire time, recorded on each node.",
                s.recurringTasks(),
                s.seconds(),
                s.warmup()));
        t.note("Run twice: the key of every execution the handlers ran (burst: its number; recurring: task and fire"
                + " second) found more than once across the nodes; for AX added to what its audit trail says:"
                + " RUNNING rows that follow a RUNNING row of the same instance with no FAILED, TIMEOUT or SCHEDULED"
                + " between them, (task, fire time) pairs with two SERIES instances, and trigger fires (SERIES or"
                + " CATCH_UP) of one (task, fire time) run by two instances. Busiest node's share: AX counts the"
                + " RUNNING audit rows per node, db-scheduler the executions its handlers counted (ideal: 100 / N).");
        if (failover != null) {
            t.note(String.format(
                    Locale.ROOT,
                    "Failover (AX only; db-scheduler has no leader): %d nodes with heartbeat %d ms, lease %d ms,"
                            + " acknowledgement timeout %d ms, poll %d ms, running %d tasks due every second; the"
                            + " leader's JVM killed with SIGKILL (Process.destroyForcibly) %d times, each time"
                            + " replaced by a new node and the cluster left 1 s once the replacement had joined."
                            + " Measured from just before the kill until the leader row shows another holder at a"
                            + " higher epoch whose lease has not expired (JdbcLeaderLease.current(), database clock,"
                            + " read every 10 ms). Bound: the dead leader's lease runs out within a lease of its last"
                            + " renewal, and a standby tries within a heartbeat. Each failover (s): %s.",
                    failover.nodes(),
                    failover.timing().heartbeat().toMillis(),
                    failover.timing().lease().toMillis(),
                    failover.timing().ackTimeout().toMillis(),
                    failover.timing().pollInterval().toMillis(),
                    failover.tasks(),
                    failover.seconds().size(),
                    joinSeconds(failover.seconds())));
        }
        if (partitions != null) {
            partitionNote(t, partitions);
        }
        rounds.forEach(t::note);
        t.note(String.format(
                Locale.ROOT,
                "Configuration per node, %d worker threads each. AX: JdbcInstanceStore on a pool of %d connections"
                        + " (one of them held by its LISTEN for wake-ups), audit log on, cluster timing heartbeat 3 s,"
                        + " lease 10 s, acknowledgement 3 s (the defaults) but poll interval %d ms (default 500 ms),"
                        + " 32 virtual nodes; pool 'default' with a queue of the whole burst or max(20,000, tasks);"
                        + " %s. db-scheduler 16.7.1: threads %d, pollingInterval %d ms,"
                        + " pollUsingLockAndFetch(%.1f, %.1f), a scheduler name per node, pool of %d connections."
                        + " Node logs: %s.",
                s.threads(),
                AxNode.CONNECTIONS,
                s.pollMs(),
                axInfoLog ? "logger io.ax at INFO" : "logger io.ax at WARN (cluster membership at INFO)",
                s.threads(),
                DbSchedulerNode.POLLING_INTERVAL.toMillis(),
                DbSchedulerNode.LOWER_LIMIT,
                DbSchedulerNode.UPPER_LIMIT,
                s.threads() + 4,
                logDir.toAbsolutePath()));
    }

    private static String burstRound(BurstPhase.Result r) {
        StringBuilder out = new StringBuilder(String.format(
                Locale.ROOT,
                "Burst, %s, %d node(s): written in %.2f s (due %.0f s after writing began); per node %s; run twice:"
                        + " %d by the handlers' keys",
                r.system(),
                r.nodes(),
                r.writeSeconds(),
                r.leadSeconds(),
                spread(r.perNode()),
                r.handlerTwice()));
        checks(out, r.checks());
        if (!r.finished()) {
            out.append(String.format(
                    Locale.ROOT, "; NOT DRAINED: %,d of %,d done when the round gave up", r.done(), r.tasks()));
        }
        tail(out, r.killedAtStop(), r.problems());
        return out.toString();
    }

    private static String recurringRound(RecurringPhase.Result r) {
        StringBuilder out = new StringBuilder(String.format(
                Locale.ROOT,
                "Recurring, %s, %d node(s): %,d fires in %.1f s of %,d due, lateness max %.1f ms, %d started before"
                        + " their time; per node %s; run twice: %d by the handlers' keys",
                r.system(),
                r.nodes(),
                r.fires(),
                r.window(),
                r.expected(),
                r.lateness().getTotalCount() == 0 ? Double.NaN : r.lateness().getMaxValue() / 1000.0,
                r.early(),
                spread(r.perNode()),
                r.handlerTwice()));
        checks(out, r.checks());
        tail(out, r.killedAtStop(), r.problems());
        return out.toString();
    }

    private static String failoverRound(FailoverPhase.Result f) {
        StringBuilder out = new StringBuilder(String.format(
                Locale.ROOT,
                "Failover load: %,d fires due while the leaders were killed, %,d of them succeeded; their instances"
                        + " by state %s; lateness p99 %.1f ms, max %.1f ms (first RUNNING audit row - fire time)",
                f.fires().expected(),
                f.fires().succeeded(),
                f.fires().states(),
                f.fires().p99LateMillis(),
                f.fires().maxLateMillis()));
        checks(out, f.checks());
        tail(out, f.killedAtStop(), f.problems());
        return out.toString();
    }

    private static void partitionNote(ResultTable t, PartitionPhase.Result r) {
        t.note(String.format(
                Locale.ROOT,
                "Partitions (AX only): %d partitions (the default), nodes with heartbeat %d ms, lease %d ms,"
                        + " acknowledgement timeout %d ms, running %d tasks due every second. One node starts alone"
                        + " and owns them all; nodes 2, 3 and 4 join one at a time, each once the partitions were"
                        + " balanced over the nodes (every one owned by a live node, loads within one of each other)"
                        + " and unchanged for 4 heartbeats; moved = partitions whose epoch grew between two such"
                        + " settled reads (a partition moved twice counts once, and is counted apart). Then a node"
                        + " that does not lead is told to stop (its engine stops its work, then gives its partitions"
                        + " up at once), timed from STOP until the first of them is given up (its move time, on the"
                        + " database's clock) and from then until the others own all of them. Then %d times a node's JVM is killed with SIGKILL"
                        + " (Process.destroyForcibly), the leader and a node that does not lead by turns, with 3"
                        + " nodes running; each takeover timed from just before the kill until every partition the"
                        + " dead node owned is owned by a live node at a higher epoch (JdbcPartitionLeases.read,"
                        + " liveness on the database's clock, read every %d ms on a thread of its own), and the"
                        + " dead node replaced by a new one once the partitions settled. Last take after the lease"
                        + " ran out: on the database's clock, the latest move time of the dead node's partitions"
                        + " minus (its last heartbeat + the lease); the others notice at their next heartbeat, so"
                        + " about 0 to one heartbeat plus a round. Bound: the dead node's heartbeat goes stale within"
                        + " a lease of the kill, and the others look within a heartbeat. No live owner: a partition"
                        + " given up (from its move time), owned by a killed node (from the kill) or by a node the"
                        + " database takes for dead, until a read shows it owned by a live node. Load average (1 min)"
                        + " %.2f before the part, %.2f after, nice %d: the machine was shared with other work, and"
                        + " node JVMs on a loaded machine heartbeat late, which the lease absorbs.",
                r.partitions(),
                r.timing().heartbeat().toMillis(),
                r.timing().lease().toMillis(),
                r.timing().ackTimeout().toMillis(),
                r.tasks(),
                r.kills().size(),
                PartitionWatch.EVERY.toMillis(),
                r.loadBefore(),
                r.loadAfter(),
                io.ax.bench.LoadAverage.niceness()));
    }

    private static String partitionRound(PartitionPhase.Result r) {
        StringJoiner joins = new StringJoiner("; ");
        r.joins().forEach(j -> joins.add(move(j, "joined")));
        StringJoiner kills = new StringJoiner("; ");
        for (PartitionPhase.Kill k : r.kills()) {
            kills.add(String.format(
                    Locale.ROOT,
                    "%s%s (%d partitions) %.3f s, %.0f ms after its lease, %d moved (%d more than once, %d it did not"
                            + " own), then %s",
                    k.node(),
                    k.leader() ? " (leader)" : "",
                    k.owned(),
                    k.seconds(),
                    k.afterLeaseMillis(),
                    k.moved(),
                    k.movedTwice(),
                    k.movedOthers(),
                    move(k.replacement(), "joined")));
        }
        PartitionWatch.Ownerless o = r.ownerless();
        StringBuilder out = new StringBuilder(String.format(
                Locale.ROOT,
                "Partition moves: %s; %s. Kills: %s. Without a live owner: %d spans, the longest %.3f s, %d longer"
                        + " than lease + heartbeat, %d partitions without one at the end; %d reads of the table"
                        + " failed",
                joins,
                move(r.leave(), "stopped"),
                kills,
                o.spans(),
                o.longestSeconds(),
                o.overBound(),
                o.open(),
                o.failedReads()));
        tail(out, r.killedAtStop(), r.problems());
        return out.toString();
    }

    private static String move(PartitionPhase.Move m, String how) {
        String timed = Double.isNaN(m.stopSeconds())
                ? String.format(Locale.ROOT, "balanced %.3f s after its start returned", m.seconds())
                : String.format(
                        Locale.ROOT,
                        "gave them up %.3f s after STOP, the others owned them %.3f s later",
                        m.stopSeconds(),
                        m.seconds());
        return String.format(
                Locale.ROOT,
                "%s %s (%d nodes after): %d moved, %d of them more than once, %d not its own, %s",
                m.node(),
                how,
                m.nodes(),
                m.moved(),
                m.movedTwice(),
                m.movedOthers(),
                timed);
    }

    private static void checks(StringBuilder out, Audit.Checks c) {
        if (c == null) {
            return;
        }
        out.append(String.format(
                Locale.ROOT,
                ", by the audit trail: %d RUNNING after RUNNING, %d fire times with two SERIES instances, %d fire"
                        + " times run by two instances; instances by state %s",
                c.runTwice(),
                c.seriesTwice(),
                c.fireRunTwice(),
                c.states()));
    }

    private static void tail(StringBuilder out, List<String> killed, Map<String, Integer> problems) {
        if (!killed.isEmpty()) {
            out.append("; did not stop when asked and were killed: ").append(killed);
        }
        int lines = problems.values().stream().mapToInt(Integer::intValue).sum();
        if (lines > 0) {
            StringJoiner top = new StringJoiner("; ");
            problems.entrySet().stream()
                    .sorted((a, b) -> b.getValue() - a.getValue())
                    .limit(3)
                    .forEach(e -> top.add(e.getValue() + " x \"" + e.getKey() + "\""));
            out.append(String.format(Locale.ROOT, "; node logs: %d WARN/ERROR lines, most: %s", lines, top));
        }
        out.append('.');
    }

    private static String spread(Map<String, Long> perNode) {
        StringJoiner j = new StringJoiner(", ");
        perNode.forEach((node, count) -> j.add(String.format(Locale.ROOT, "%s %,d", node, count)));
        return j.toString();
    }

    private static String joinSeconds(List<Double> seconds) {
        StringJoiner j = new StringJoiner(", ");
        seconds.forEach(x -> j.add(String.format(Locale.ROOT, "%.3f", x)));
        return j.toString();
    }

    /** What {@code --limit} put on AX's burst task, in words: the cost of a cluster-wide limit, never a wait. */
    private static String limitNote(String limit, String permits) {
        String where = permits.equals("redis")
                ? " The permits were on the local Redis (ax.redis.permits=true): the claim took them there, and only"
                        + " its change to RUNNING in the database."
                : "";
        return switch (limit) {
            case "task" ->
                "AX's burst task had maxConcurrent = 10,000 (never reached): each claim took a permit in its own"
                        + " transaction." + where;
            case "group" ->
                "AX's pool had cluster-limit = 10,000 (never reached): each claim took a permit in its own"
                        + " transaction." + where;
            case "mutex" ->
                "AX's burst task had mutex = \"${key}\" and each execution a key of its own (no two share a mutex):"
                        + " each claim took a permit in its own transaction." + where;
            default -> "No cluster-wide limit on AX's burst task (--limit=none).";
        };
    }
}
