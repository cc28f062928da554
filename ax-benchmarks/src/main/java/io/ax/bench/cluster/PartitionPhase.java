package io.ax.bench.cluster;

import io.ax.bench.LoadAverage;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.LeaderInfo;
import io.ax.jdbc.JdbcLeaderLease;
import io.ax.jdbc.JdbcPartitionLeases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Part 4, partitions (AX only): how many partitions move, and how fast a dead node's are taken over. One node with
 * short cluster timing starts alone and owns every partition; a 2nd, 3rd and 4th join one at a time, each once the
 * partitions are balanced and have not moved for {@link #QUIET}, and the partitions that moved by then are counted
 * (their epoch grew). Then a node that does not lead stops gracefully (it gives its partitions up at once), and the
 * part times how long until the others own them all. Then, again and again, a node's JVM is killed ({@code
 * SIGKILL}), the cluster leader and a node that does not lead by turns: timed from the kill until every partition
 * the dead node owned is owned by a live node at a higher epoch (the partition table read every 10 ms by a {@link
 * PartitionWatch}, each owner's liveness judged on the database's clock); each dead node is replaced by a fresh one,
 * whose join is counted like the others. Throughout, the watch times every span in which a partition had no live
 * owner.
 */
final class PartitionPhase {

    /** How long the partitions must stay unchanged, balanced, before a snapshot counts as settled: 4 heartbeats. */
    private static final int QUIET_HEARTBEATS = 4;

    private static final Duration GIVE_UP = Duration.ofSeconds(60);
    private static final Duration EXIT = Duration.ofSeconds(30);

    /**
     * A node joined (or left) and the partitions settled again.
     *
     * @param node the node that joined or left
     * @param nodes how many nodes own partitions afterwards
     * @param moved partitions whose epoch grew meanwhile
     * @param movedTwice of them, those whose epoch grew by two or more (moved on, or to and fro)
     * @param movedOthers of them, those the leaving node did not own (0 for a join)
     * @param seconds from the joining node's start returning until balanced (a join), or from the leaving node's
     *     first partition given up until the others owned all of them (a leave)
     * @param stopSeconds a leave: from STOP sent to the node until it gave its first partition up; NaN for a join
     */
    record Move(
            String node, int nodes, int moved, int movedTwice, int movedOthers, double seconds, double stopSeconds) {}

    /**
     * One kill.
     *
     * @param node the node killed
     * @param leader whether it led the cluster
     * @param owned the partitions it owned
     * @param seconds from the kill until a live node owned every one of them at a higher epoch
     * @param afterLeaseMillis on the database's clock: the last of them taken minus the moment the dead node's last
     *     heartbeat went older than the lease; NaN when its row was gone
     * @param moved partitions whose epoch grew between the settled reads before and after
     * @param movedTwice of them, those whose epoch grew by two or more (taken by one node, then handed to another)
     * @param movedOthers of them, those the dead node did not own
     * @param replacement the join of the node that replaced it
     */
    record Kill(
            String node,
            boolean leader,
            int owned,
            double seconds,
            double afterLeaseMillis,
            int moved,
            int movedTwice,
            int movedOthers,
            Move replacement) {}

    /** What the part measured. */
    record Result(
            ClusterSettings timing,
            int partitions,
            int tasks,
            List<Move> joins,
            Move leave,
            int leaveOwned,
            List<Kill> kills,
            PartitionWatch.Ownerless ownerless,
            double loadBefore,
            double loadAfter,
            List<String> killedAtStop,
            Map<String, Integer> problems) {

        List<Double> takeoverSeconds() {
            return kills.stream().map(Kill::seconds).toList();
        }

        List<Double> afterLeaseMillis() {
            return kills.stream()
                    .map(Kill::afterLeaseMillis)
                    .filter(x -> !x.isNaN())
                    .toList();
        }

        /**
         * The longest a takeover should take: the dead node's heartbeat goes stale within a lease, and the others
         * look within a heartbeat.
         */
        double boundSeconds() {
            return timing.lease().plus(timing.heartbeat()).toMillis() / 1e3;
        }
    }

    private final NodeProcesses processes;
    private final Settings settings;

    PartitionPhase(NodeProcesses processes, Settings settings) {
        this.processes = processes;
        this.settings = settings;
    }

    /** Heartbeat and lease as given; the acknowledgement timeout 3/5 of the lease, as in the fault runs. */
    ClusterSettings timing() {
        Duration lease = Duration.ofMillis(settings.partitionLeaseMs());
        return new ClusterSettings(
                Duration.ofMillis(settings.partitionHeartbeatMs()),
                lease,
                lease.multipliedBy(3).dividedBy(5),
                Duration.ofMillis(settings.pollMs()),
                32);
    }

    Result run(AxCluster ax) throws Exception {
        ClusterSettings timing = timing();
        int tasks = settings.partitionTasks();
        ax.recreate(ClusterSystem.Part.PARTITIONS);
        List<String> args = new ArrayList<>(ax.nodeArgs());
        args.addAll(settings.nodeArgs());
        args.add("--load=recurring");
        args.add("--tasks=" + tasks);
        args.add("--queue=20000");
        args.add("--heartbeat-ms=" + timing.heartbeat().toMillis());
        args.add("--lease-ms=" + timing.lease().toMillis());
        args.add("--ack-ms=" + timing.ackTimeout().toMillis());
        String label = "partitions-ax";
        double loadBefore = LoadAverage.now();
        ClusterScenario.log("%s: starting 1 node (%s); load average %.2f", label, timing, loadBefore);
        NodeGroup group = NodeGroup.start(processes, label, List.of("p-1"), args);
        List<Move> joins = new ArrayList<>();
        List<Kill> kills = new ArrayList<>();
        Move leave;
        int leaveOwned;
        int partitions;
        PartitionWatch.Ownerless ownerless;
        List<String> killed;
        long bound = timing.lease().plus(timing.heartbeat()).toNanos();
        try (PartitionWatch watch =
                new PartitionWatch(new JdbcPartitionLeases(ax.dataSource(), ax.prefix()), timing.lease(), bound)) {
            Run run = new Run(ax, group, watch, timing, label);
            group.awaitJoined(Settings.JOIN);
            partitions = run.settled().count();
            int next = 2;
            for (; next <= 4; next++) {
                joins.add(run.join("p-" + next));
            }
            String leaving = run.nonLeader();
            leaveOwned = watch.latest().ownedBy(leaving).size();
            leave = run.leave(leaving);
            for (int round = 1; round <= settings.partitionKills(); round++) {
                kills.add(run.kill(round % 2 == 1, "p-" + next++));
            }
            ownerless = watch.ownerless();
        } finally {
            killed = group.stop();
        }
        double loadAfter = LoadAverage.now();
        Result r = new Result(
                timing,
                partitions,
                tasks,
                joins,
                leave,
                leaveOwned,
                kills,
                ownerless,
                loadBefore,
                loadAfter,
                killed,
                NodeLogs.problems(group.logs()));
        ClusterScenario.log(
                "%s: takeover min %.3f s, median %.3f s, max %.3f s (bound %.1f s); without a live owner: %s;"
                        + " load average %.2f before, %.2f after",
                label,
                Timings.min(r.takeoverSeconds()),
                Timings.median(r.takeoverSeconds()),
                Timings.max(r.takeoverSeconds()),
                r.boundSeconds(),
                ownerless,
                loadBefore,
                loadAfter);
        ClusterScenario.logProblems(label, r.problems(), killed);
        if (!settings.keepTables()) {
            ax.drop(ClusterSystem.Part.PARTITIONS);
        }
        return r;
    }

    /** One run of the part: its nodes, the watch on their partitions and the leader row. Used by one thread. */
    private static final class Run {

        private final AxCluster ax;
        private final NodeGroup group;
        private final ClusterSettings timing;
        private final String label;
        private final JdbcLeaderLease lease;
        private final long quietNanos;
        private final PartitionWatch watch;

        Run(AxCluster ax, NodeGroup group, PartitionWatch watch, ClusterSettings timing, String label) {
            this.ax = ax;
            this.group = group;
            this.watch = watch;
            this.timing = timing;
            this.label = label;
            this.lease = new JdbcLeaderLease(ax.dataSource(), ax.prefix());
            this.quietNanos = timing.heartbeat().multipliedBy(QUIET_HEARTBEATS).toNanos();
        }

        private Set<String> ids() {
            Set<String> ids = new TreeSet<>();
            group.nodes().forEach(n -> ids.add(n.id()));
            return ids;
        }

        /** The first read on which the group's nodes own every partition, balanced, unchanged for a while. */
        PartitionSnapshot settled() throws InterruptedException {
            Set<String> ids = ids();
            return watch.await(
                    "balanced over " + ids + " and unchanged for " + QUIET_HEARTBEATS + " heartbeats",
                    s -> s.balancedOver(ids) && s.quietFor(quietNanos),
                    GIVE_UP);
        }

        /** A node joins the settled cluster; until the partitions are settled over all of them again. */
        Move join(String id) throws Exception {
            PartitionSnapshot before = settled();
            group.add(id);
            long t0 = System.nanoTime();
            Set<String> ids = ids();
            PartitionSnapshot balanced = watch.await("balanced over " + ids, s -> s.balancedOver(ids), GIVE_UP);
            PartitionSnapshot after = settled();
            Set<Integer> moved = PartitionSnapshot.moved(before, after);
            Move m = new Move(
                    id,
                    ids.size(),
                    moved.size(),
                    PartitionSnapshot.movedMoreThanOnce(before, after).size(),
                    0,
                    (balanced.nanos() - t0) / 1e9,
                    Double.NaN);
            ClusterScenario.log(
                    "%s: %s joined (%d nodes): %d of %d partitions moved (%d more than once), balanced %.3f s after"
                            + " its start returned; loads %s",
                    label, id, m.nodes(), m.moved(), after.count(), m.movedTwice(), m.seconds(), after.loads());
            return m;
        }

        /** A node stops gracefully: until the others own what it gave up, and the partitions settled again. */
        Move leave(String id) throws Exception {
            PartitionSnapshot before = settled();
            Map<Integer, Long> owned = before.ownedBy(id);
            Node node = group.node(id);
            long t0 = System.nanoTime();
            node.send("STOP");
            PartitionSnapshot first = watch.await(
                    "a partition of " + id + " given up",
                    s -> s.givenUpAt(owned).isPresent() || s.takenOver(id, owned),
                    GIVE_UP);
            long givenUp = first.givenUpAt(owned).orElse(first.nanos());
            PartitionSnapshot taken = first.takenOver(id, owned)
                    ? first
                    : watch.await(
                            "the partitions of " + id + " owned by the others", s -> s.takenOver(id, owned), GIVE_UP);
            if (!node.process().waitFor(EXIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("node " + id + " did not exit within " + EXIT + " of STOP");
            }
            group.remove(node);
            PartitionSnapshot after = settled();
            Set<Integer> moved = PartitionSnapshot.moved(before, after);
            Move m = new Move(
                    id,
                    ids().size(),
                    moved.size(),
                    PartitionSnapshot.movedMoreThanOnce(before, after).size(),
                    others(moved, owned.keySet()),
                    (taken.nanos() - givenUp) / 1e9,
                    (givenUp - t0) / 1e9);
            ClusterScenario.log(
                    "%s: %s stopped gracefully: gave its %d partitions up %.3f s after STOP, owned by the others %.3f s"
                            + " later; %d moved in all (%d it did not own); loads %s",
                    label, id, owned.size(), m.stopSeconds(), m.seconds(), m.moved(), m.movedOthers(), after.loads());
            return m;
        }

        /** Kills the leader or a node that does not lead, times the takeover, and has a new node join in its place. */
        Kill kill(boolean leader, String replacement) throws Exception {
            PartitionSnapshot before = settled();
            String id = leader ? leader() : nonLeader();
            Map<Integer, Long> owned = before.ownedBy(id);
            if (owned.isEmpty()) {
                throw new IllegalStateException(id + " owns no partition in a balanced cluster: " + before.loads());
            }
            String incarnation =
                    before.rows().get(owned.keySet().iterator().next()).incarnation();
            Node node = group.node(id);
            long t0 = System.nanoTime();
            watch.killed(id, t0);
            node.process().destroyForcibly();
            PartitionSnapshot taken = watch.await(
                    "the partitions of the killed " + id + " owned by the others",
                    s -> s.takenOver(id, owned),
                    GIVE_UP);
            double seconds = (taken.nanos() - t0) / 1e9;
            double afterLease = afterLeaseMillis(id, incarnation, owned.keySet());
            if (!node.process().waitFor(EXIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the killed node " + id + " did not exit");
            }
            group.remove(node);
            PartitionSnapshot after = settled();
            Set<Integer> moved = PartitionSnapshot.moved(before, after);
            int twice = PartitionSnapshot.movedMoreThanOnce(before, after).size();
            int others = others(moved, owned.keySet());
            ClusterScenario.log(
                    "%s: killed %s %s (%d partitions): taken over after %.3f s, the last %.0f ms after its lease ran"
                            + " out (database clock); %d moved in all (%d more than once, %d it did not own)",
                    label,
                    leader ? "the leader" : "non-leader",
                    id,
                    owned.size(),
                    seconds,
                    afterLease,
                    moved.size(),
                    twice,
                    others);
            Move joined = join(replacement);
            return new Kill(id, leader, owned.size(), seconds, afterLease, moved.size(), twice, others, joined);
        }

        /**
         * On the database's clock: when the last of {@code partitions} was taken (their move time) less when the dead
         * process's heartbeat went older than the lease. NaN when its node row is gone.
         */
        private double afterLeaseMillis(String id, String incarnation, Set<Integer> partitions) {
            String p = ax.prefix();
            Long heartbeat = ax.jdbc()
                    .query(
                            "SELECT heartbeat_us FROM " + p + "node WHERE node_id = ? AND incarnation = ?",
                            rs -> rs.next() ? rs.getLong(1) : null,
                            id,
                            incarnation);
            String marks = String.join(", ", Collections.nCopies(partitions.size(), "?"));
            Long lastTake = ax.jdbc()
                    .queryForObject(
                            "SELECT MAX(moved_us) FROM " + p + "partition WHERE id IN (" + marks + ")",
                            Long.class,
                            partitions.toArray());
            if (heartbeat == null || lastTake == null) {
                return Double.NaN;
            }
            return (lastTake - heartbeat - timing.lease().toNanos() / 1_000) / 1e3;
        }

        String leader() throws InterruptedException {
            long giveUp = System.nanoTime() + GIVE_UP.toNanos();
            while (System.nanoTime() < giveUp) {
                LeaderInfo info = lease.current();
                if (info.held() && group.node(info.holder()) != null) {
                    return info.holder();
                }
                Thread.sleep(PartitionWatch.EVERY.toMillis());
            }
            throw new IllegalStateException("no node of the group holds the lease: " + lease.current());
        }

        /** The node that has been in the group longest among those that do not lead. */
        String nonLeader() throws InterruptedException {
            String leader = leader();
            return group.nodes().stream()
                    .map(Node::id)
                    .filter(n -> !n.equals(leader))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("every node leads: " + ids()));
        }

        private static int others(Set<Integer> moved, Set<Integer> owned) {
            int others = 0;
            for (int p : moved) {
                if (!owned.contains(p)) {
                    others++;
                }
            }
            return others;
        }
    }
}
