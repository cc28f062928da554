package io.ax.bench.cluster;

import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.LeaderInfo;
import io.ax.jdbc.JdbcLeaderLease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Part 3, failover (AX only; db-scheduler has no leader): three nodes with short cluster timing run a light
 * recurring load; the leader's JVM is killed ({@code SIGKILL}, {@link Process#destroyForcibly}) again and again,
 * each time replaced by a fresh node, and the time is measured from the kill until the {@code <prefix>leader} row
 * shows another holder, at a higher epoch, whose lease has not expired (read every 10 ms, on the database's clock).
 * Afterwards the audit trail says whether any fire ran twice or was lost.
 */
final class FailoverPhase {

    private static final Duration POLL = Duration.ofMillis(10);
    private static final Duration GIVE_UP = Duration.ofSeconds(30);
    private static final Duration SETTLE = Duration.ofSeconds(1);

    /** What the part measured. */
    record Result(
            List<Double> seconds,
            ClusterSettings timing,
            int nodes,
            int tasks,
            Audit.Fires fires,
            Audit.Checks checks,
            List<String> killedAtStop,
            Map<String, Integer> problems) {

        double min() {
            return Timings.min(seconds);
        }

        double max() {
            return Timings.max(seconds);
        }

        double median() {
            return Timings.median(seconds);
        }

        /** The longest a failover should take: the dead leader's lease runs out, and a standby tries within a heartbeat. */
        double boundSeconds() {
            return timing.lease().plus(timing.heartbeat()).toMillis() / 1e3;
        }
    }

    private final NodeProcesses processes;
    private final Settings settings;

    FailoverPhase(NodeProcesses processes, Settings settings) {
        this.processes = processes;
        this.settings = settings;
    }

    ClusterSettings timing() {
        return new ClusterSettings(
                Duration.ofMillis(settings.failoverHeartbeatMs()),
                Duration.ofMillis(settings.failoverLeaseMs()),
                Duration.ofMillis(settings.failoverAckMs()),
                Duration.ofMillis(settings.pollMs()),
                32);
    }

    Result run(AxCluster ax) throws Exception {
        int n = 3;
        int tasks = settings.failoverTasks();
        ClusterSettings timing = timing();
        ax.recreate(ClusterSystem.Part.FAILOVER);
        List<String> args = new ArrayList<>(ax.nodeArgs());
        args.addAll(settings.nodeArgs());
        args.add("--load=recurring");
        args.add("--tasks=" + tasks);
        args.add("--queue=20000");
        args.add("--heartbeat-ms=" + timing.heartbeat().toMillis());
        args.add("--lease-ms=" + timing.lease().toMillis());
        args.add("--ack-ms=" + timing.ackTimeout().toMillis());
        String label = "failover-ax";
        ClusterScenario.log("%s: starting %d nodes (%s)", label, n, timing);
        NodeGroup group = NodeGroup.start(processes, label, List.of("f-1", "f-2", "f-3"), args);
        JdbcLeaderLease lease = new JdbcLeaderLease(ax.dataSource(), ax.prefix());
        List<Double> seconds = new ArrayList<>();
        long fromSecond;
        long toSecond;
        List<String> killed;
        try {
            group.awaitJoined(Settings.JOIN);
            fromSecond = Instant.now().getEpochSecond() + 1;
            int next = n + 1;
            for (int round = 1; round <= settings.kills(); round++) {
                LeaderInfo before = leaderInGroup(lease, group);
                Node leader = group.node(before.holder());
                long t0 = System.nanoTime();
                leader.process().destroyForcibly();
                LeaderInfo after = null;
                long giveUp = t0 + GIVE_UP.toNanos();
                while (System.nanoTime() < giveUp) {
                    LeaderInfo now = lease.current();
                    if (now.held() && !before.holder().equals(now.holder()) && now.epoch() > before.epoch()) {
                        after = now;
                        break;
                    }
                    Thread.sleep(POLL.toMillis());
                }
                double took = (System.nanoTime() - t0) / 1e9;
                if (after == null) {
                    throw new IllegalStateException("no other node took the lease within " + GIVE_UP + " after "
                            + before.holder() + " (epoch " + before.epoch() + ") was killed");
                }
                seconds.add(took);
                ClusterScenario.log(
                        "%s: round %d: killed leader %s (epoch %d); %s leads at epoch %d after %.3f s",
                        label, round, before.holder(), before.epoch(), after.holder(), after.epoch(), took);
                if (!leader.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the killed node " + leader.id() + " did not exit");
                }
                group.remove(leader);
                group.add("f-" + next++);
                group.awaitJoined(Settings.JOIN);
                Thread.sleep(SETTLE.toMillis());
            }
            toSecond = Instant.now().getEpochSecond();
            Thread.sleep(2_000); // the last fires of the window run
        } finally {
            killed = group.stop();
        }
        Audit audit = new Audit(ax.jdbc(), ax.prefix());
        Audit.Fires fires = audit.fires(fromSecond, toSecond, tasks);
        Audit.Checks checks = audit.check(fromSecond * 1_000_000L, toSecond * 1_000_000L);
        Result r = new Result(seconds, timing, n, tasks, fires, checks, killed, NodeLogs.problems(group.logs()));
        ClusterScenario.log(
                "%s: failover min %.3f s, median %.3f s, max %.3f s (bound %.1f s); fires %s; audit %s",
                label, r.min(), r.median(), r.max(), r.boundSeconds(), fires, checks);
        ClusterScenario.logProblems(label, r.problems(), killed);
        if (!settings.keepTables()) {
            ax.drop(ClusterSystem.Part.FAILOVER);
        }
        return r;
    }

    /** The lease as it is now, held by a node of this group (waits, bounded, while it changes hands). */
    private static LeaderInfo leaderInGroup(JdbcLeaderLease lease, NodeGroup group) throws InterruptedException {
        long giveUp = System.nanoTime() + GIVE_UP.toNanos();
        while (System.nanoTime() < giveUp) {
            LeaderInfo info = lease.current();
            if (info.held() && group.node(info.holder()) != null) {
                return info;
            }
            Thread.sleep(POLL.toMillis());
        }
        throw new IllegalStateException("no node of the group holds the lease: " + lease.current());
    }
}
