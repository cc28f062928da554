package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.Durability;
import io.ax.core.InstanceState;
import io.ax.core.RetryPolicy;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.EpochFence;
import io.ax.core.cluster.EpochMirroringLease;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.LeaderInfo;
import io.ax.core.cluster.Lease;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.NodeStatus;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.store.FailingStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Three engines (three nodes) in one JVM on one database, with a short heartbeat and lease: one trigger decision per
 * fire time, work spread over every node, leadership handed over when the leader stops or loses the database, and a
 * deposed leader's late write rejected.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcClusterContract {

    private static final String PREFIX = "axclu_";
    private static final Duration BOUND = Duration.ofSeconds(30);
    /**
     * Heartbeat 100 ms, lease 1 s, acknowledgement within 300 ms, what other nodes hold followed every 50 ms. A node
     * whose last heartbeat is older than the lease less the safety margin takes itself for cut off and stops its
     * running work (the others may take it for dead); with a lease of 500 ms, the stalls of a loaded two-core machine
     * (three nodes' heartbeats on MariaDB held for 300 ms at once) did that now and then, and moved work between
     * nodes.
     */
    static final ClusterSettings FAST = new ClusterSettings(
            Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMillis(300), Duration.ofMillis(50), 32);

    private final List<AxEngine> engines = new ArrayList<>();
    private final Map<String, Cuttable> links = new HashMap<>();
    private final RecordingExecutor executor = new RecordingExecutor();
    private DataSource dataSource;
    private JdbcTemplate db;

    abstract TestDatabase database();

    @BeforeAll
    void createSchema() {
        database().migrate(PREFIX);
    }

    @BeforeEach
    void emptyTables() {
        // one executor serves every test of the class: a test's runs and behaviours must not reach the next
        executor.reset();
        database().emptyStore(PREFIX);
        dataSource = database().dataSource();
        db = new JdbcTemplate(dataSource);
    }

    @AfterEach
    void stopAll() {
        links.values().forEach(Cuttable::heal);
        engines.forEach(AxEngine::stop);
    }

    private AxEngine node(String id, AxTask... tasks) {
        return node(id, FAST, tasks);
    }

    private AxEngine node(String id, ClusterSettings settings, AxTask... tasks) {
        return node(id, settings, WakeUps.none(), tasks);
    }

    private AxEngine node(String id, ClusterSettings settings, WakeUps wakeUps, AxTask... tasks) {
        return node(id, settings, wakeUps, new PoolSettings(8, 1_000), tasks);
    }

    private AxEngine node(String id, ClusterSettings settings, WakeUps wakeUps, PoolSettings pool, AxTask... tasks) {
        return node(id, new JdbcInstanceStore(dataSource, PREFIX), settings, wakeUps, pool, tasks);
    }

    private AxEngine node(
            String id,
            InstanceStore store,
            ClusterSettings settings,
            WakeUps wakeUps,
            PoolSettings pool,
            AxTask... tasks) {
        // the store's own lease and registry, behind a switch: its writes stay fenced by the lease's epochs
        ClusterStore own = (ClusterStore) store;
        Cuttable link = new Cuttable((JdbcLeaderLease) own.leaderLease(), own.nodeRegistry());
        links.put(id, link);
        AxEngine e = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(id)
                .clusterSettings(settings)
                .cluster(link, link)
                .wakeUps(wakeUps)
                .defaultPool(pool)
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        for (AxTask task : tasks) {
            e.register(task);
        }
        engines.add(e);
        return e;
    }

    private static AxTask.Builder task(String name) {
        return AxTask.builder(name).target("test." + name).timeout(Duration.ofSeconds(20));
    }

    private static AxTask every(String name, Duration period) {
        return task(name)
                .trigger(IntervalTrigger.fixedRate(period, Duration.ZERO))
                .build();
    }

    private List<AxEngine> threeNodes(AxTask... tasks) {
        List<AxEngine> nodes = List.of(node("n1", tasks), node("n2", tasks), node("n3", tasks));
        nodes.forEach(AxEngine::start);
        await().atMost(BOUND)
                .until(() -> nodes.stream()
                        .allMatch(e -> e.status().cluster().liveNodes().size() == 3));
        assertSettled(nodes); // each node decides its own share once it owns it
        return nodes;
    }

    /** The one node that leads, read in one look: two looks could see the lease lapse in between. */
    private AxEngine leader(List<AxEngine> nodes) {
        return await().atMost(BOUND)
                .until(
                        () -> {
                            List<AxEngine> leading = nodes.stream()
                                    .filter(e -> e.status().cluster().isLeader())
                                    .toList();
                            return leading.size() == 1 ? leading.get(0) : null;
                        },
                        Objects::nonNull);
    }

    @Test
    void everyFireTimeHasOneInstanceAndWorkLandsOnEveryNode() {
        List<AxEngine> nodes =
                threeNodes(every("tick", Duration.ofMillis(50)), task("job").build());
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            requests.add(ScheduleRequest.of("job").after(Duration.ofMillis(200)));
        }
        List<String> ids = nodes.get(1).scheduleAll(requests); // scheduled on a node that may not lead
        await().atMost(BOUND).until(() -> ids.stream().allMatch(id -> state(id) == InstanceState.SUCCESS));
        await().atMost(BOUND).until(() -> executor.runsOf("tick").size() >= 20);

        assertOneInstancePerFireTimeAndOneRunPerInstance();
        Set<String> ran = executor.runsOf("job").stream().map(AxContext::nodeId).collect(Collectors.toSet());
        assertThat(ran).as("nodes that ran delayed work").containsExactlyInAnyOrder("n1", "n2", "n3");
        assertThat(db.queryForList(
                        "SELECT DISTINCT owner FROM " + PREFIX + "instance WHERE task_name = 'job'", String.class))
                .containsExactlyInAnyOrder("n1", "n2", "n3");
        assertThat(nodes.stream().filter(e -> e.status().cluster().isLeader())).hasSize(1);
    }

    @Test
    void workDueAtOnceIsSharedEvenlyNotByTheRingsUnevenArcs() {
        // with 32 points each, the ring alone gives n1, n2 and n3 about 33, 39 and 28 % of all keys
        List<AxEngine> nodes = threeNodes(task("job").build());
        Instant due = Instant.now().plusMillis(500);
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            requests.add(ScheduleRequest.of("job").at(due));
        }
        List<String> ids = leader(nodes).scheduleAll(requests);
        await().atMost(BOUND).until(() -> ids.stream().allMatch(id -> state(id) == InstanceState.SUCCESS));

        Map<String, Long> perNode =
                db
                        .queryForList("SELECT owner FROM " + PREFIX + "instance WHERE task_name = 'job'", String.class)
                        .stream()
                        .collect(Collectors.groupingBy(owner -> owner, Collectors.counting()));
        assertThat(perNode).as("instances per node").containsOnlyKeys("n1", "n2", "n3");
        // each instance ran on the owner of its partition, and the partitions are spread within one of each other
        Map<String, Set<Integer>> owned = assertSettled(nodes);
        int count = nodes.get(0).status().partitions().orElseThrow().count();
        Map<String, Long> byPartition = ids.stream()
                .collect(Collectors.groupingBy(
                        id -> owned.entrySet().stream()
                                .filter(e -> e.getValue().contains(io.ax.core.cluster.Partitions.of(id, count)))
                                .findFirst()
                                .orElseThrow()
                                .getKey(),
                        Collectors.counting()));
        assertThat(perNode)
                .as("instances per node, by their partitions' owners")
                .isEqualTo(byPartition);
    }

    @Test
    void aPauseOnAFollowerStopsTheLeadersFiresAndAResumeOnAnotherStartsThemAgain() {
        List<AxEngine> nodes = threeNodes(every("tick", Duration.ofMillis(50)));
        AxEngine leader = leader(nodes);
        List<AxEngine> followers = nodes.stream().filter(e -> e != leader).toList();
        await().atMost(BOUND).until(() -> executor.runsOf("tick").size() >= 3);

        followers.get(0).pause("tick");
        // within a heartbeat the leader knows: its pending fire is cancelled and no fire time creates anything
        await().during(Duration.ofSeconds(1))
                .atMost(BOUND)
                .until(() -> count("task_name = 'tick' AND state NOT IN ('SUCCESS', 'SKIPPED', 'CANCELLED')") == 0);
        int runs = executor.runsOf("tick").size();
        int rows = count("task_name = 'tick'");
        await().during(Duration.ofMillis(500)).atMost(BOUND).until(() -> count("task_name = 'tick'") == rows);
        assertThat(executor.runsOf("tick")).as("no run while paused").hasSize(runs);

        followers.get(1).resume("tick");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> executor.runsOf("tick").size() > runs + 3);
    }

    @Test
    void aLeaderThatStopsHandsOverAtOnce() {
        List<AxEngine> nodes = threeNodes(every("tick", Duration.ofMillis(50)));
        AxEngine first = leader(nodes);
        long epoch = first.status().cluster().epoch();
        first.stop();
        List<AxEngine> rest = nodes.stream().filter(e -> e != first).toList();
        AxEngine next = leader(rest);
        assertThat(next.status().cluster().epoch()).isGreaterThan(epoch);
        int before = executor.runsOf("tick").size();
        await().atMost(BOUND).until(() -> executor.runsOf("tick").size() > before + 5);
    }

    @Test
    void aNodeThatStopsReturnsTheWorkItAcknowledgedAndNeverStartedForAnotherToRun() throws Exception {
        AxTask job = task("job").concurrent(true).build();
        AxEngine n1 = node("n1", FAST, job);
        n1.start(); // the leader
        // n2 runs one instance at a time: what it acknowledges waits in its queue, RUNNING and not started
        AxEngine n2 = node("n2", FAST, WakeUps.none(), new PoolSettings(1, 100), job);
        n2.start();
        await().atMost(BOUND).until(() -> n1.status().cluster().liveNodes().size() == 2);
        assertSettled(List.of(n1, n2)); // with partitions, n2 runs the work of its own once it owns them
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean();
        executor.when("job", ctx -> {
            if (ctx.nodeId().equals("n2") && first.compareAndSet(false, true)) {
                holding.countDown();
                letGo.await(BOUND.toMillis(), TimeUnit.MILLISECONDS); // n2's only thread is busy meanwhile
            }
            return io.ax.core.AxResult.success();
        });
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            requests.add(ScheduleRequest.of("job").after(Duration.ofMillis(100)));
        }
        List<String> ids = n1.scheduleAll(requests);
        assertThat(holding.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        await().atMost(BOUND).until(() -> count("owner = 'n2' AND state = 'RUNNING'") >= 10);

        Thread stopping = new Thread(n2::stop, "test-stop-n2");
        stopping.start();
        // at once, not after the shutdown wait: what n2 never started goes back while its one run goes on
        await().atMost(BOUND)
                .until(() -> db.queryForObject(
                                "SELECT COUNT(*) FROM " + PREFIX + "audit WHERE reason LIKE 'returned: node n2 stops%'",
                                Integer.class)
                        >= 9);
        assertThat(stopping.isAlive()).as("n2 still waits for its one run").isTrue();
        assertThat(new JdbcNodeRegistry(dataSource, PREFIX).nodes())
                .as("n2 is alive (its run is not orphaned) and says it leaves (it is assigned nothing more)")
                .anySatisfy(n -> {
                    assertThat(n.nodeId()).isEqualTo("n2");
                    assertThat(n.leaving()).isTrue();
                    assertThat(n.aliveWithin(FAST.lease())).isTrue();
                });
        letGo.countDown();
        stopping.join(BOUND.toMillis());

        await().atMost(BOUND).until(() -> ids.stream().allMatch(id -> state(id) == InstanceState.SUCCESS));
        Map<String, Long> runsPerInstance = executor.runs().stream()
                .filter(ctx -> ids.contains(ctx.instanceId()))
                .collect(Collectors.groupingBy(AxContext::instanceId, Collectors.counting()));
        assertThat(runsPerInstance).hasSize(ids.size());
        assertThat(runsPerInstance.values()).as("an instance run twice").allMatch(n -> n == 1);
        List<String> returned = db.queryForList(
                "SELECT instance_id FROM " + PREFIX + "audit WHERE from_state = 'RUNNING' AND to_state = 'SCHEDULED'",
                String.class);
        assertThat(returned).isNotEmpty().doesNotHaveDuplicates();
        for (String id : returned) {
            assertThat(db.queryForObject("SELECT owner FROM " + PREFIX + "instance WHERE id = ?", String.class, id))
                    .as("run by the node that stayed")
                    .isEqualTo("n1");
            List<String> trail = db.queryForList(
                    "SELECT to_state FROM " + PREFIX + "audit WHERE instance_id = ? ORDER BY id", String.class, id);
            assertThat(trail)
                    .as("returned unstarted, then run once elsewhere, without a failed attempt: %s", trail)
                    .startsWith("CREATED", "SCHEDULED", "RUNNING", "SCHEDULED")
                    .endsWith("SCHEDULED", "RUNNING", "SUCCESS")
                    .doesNotContain("FAILED", "TIMEOUT", "RETRYING", "DISPATCHED");
            assertThat(trail.stream().filter("RUNNING"::equals))
                    .as("started: claimed twice, run once")
                    .hasSize(2);
        }
    }

    @Test
    void aNodeBackFromACutStartsNoAttemptItClaimedBeforeIt() throws Exception {
        AxTask job = task("job").concurrent(true).build();
        AxEngine n1 = node("n1", FAST, job);
        n1.start(); // the leader
        // n2 runs one attempt at a time: what it claims meanwhile waits in its queue, RUNNING and not started
        AxEngine n2 = node("n2", FAST, WakeUps.none(), new PoolSettings(1, 100), job);
        n2.start();
        await().atMost(BOUND).until(() -> n1.status().cluster().liveNodes().size() == 2);
        assertSettled(List.of(n1, n2));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<String> held = new java.util.concurrent.atomic.AtomicReference<>();
        executor.when("job", ctx -> {
            if (ctx.nodeId().equals("n2") && first.compareAndSet(false, true)) {
                held.set(ctx.instanceId());
                holding.countDown();
                long until = System.nanoTime() + BOUND.toNanos();
                while (letGo.getCount() > 0 && System.nanoTime() < until) {
                    try {
                        letGo.await(50, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException deaf) {
                        // n2's only thread stays busy through the cut, as a handler that does not heed it would
                    }
                }
            }
            return io.ax.core.AxResult.success();
        });
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            requests.add(ScheduleRequest.of("job").after(Duration.ofMillis(100)));
        }
        List<String> ids = n1.scheduleAll(requests);
        assertThat(holding.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        await().atMost(BOUND).until(() -> count("owner = 'n2' AND state = 'RUNNING'") >= 5);

        // n2's heartbeats fail for longer than its lease: n1 takes n2 for dead and takes its claimed attempts over
        links.get("n2").cut();
        await().atMost(BOUND)
                .until(() -> db.queryForObject(
                                "SELECT COUNT(*) FROM " + PREFIX + "audit WHERE reason LIKE 'takeover: node n2%'",
                                Integer.class)
                        >= 3);
        links.get("n2").heal();
        await().atMost(BOUND).until(() -> n2.status().storeContact().isEmpty());
        letGo.countDown(); // n2's thread is free for its queue again

        await().atMost(BOUND).until(() -> ids.stream().allMatch(id -> state(id) == InstanceState.SUCCESS));
        Map<String, Long> runsPerInstance = executor.runs().stream()
                .filter(ctx -> ids.contains(ctx.instanceId()))
                .collect(Collectors.groupingBy(AxContext::instanceId, Collectors.counting()));
        assertThat(runsPerInstance.entrySet().stream()
                        .filter(e -> e.getValue() > 1 && !e.getKey().equals(held.get())))
                .as("instances whose attempt n2 claimed before the cut ran on n2 after it, beside their takeover (the"
                        + " one it was running through the cut may: at least once)")
                .isEmpty();
    }

    @Test
    void aLeaderCutOffFromTheDatabaseStopsDecidingAndAnotherTakesOverWithinTheBound() {
        List<AxEngine> nodes = threeNodes(every("tick", Duration.ofMillis(50)));
        AxEngine cut = leader(nodes);
        String cutId = cut.status().cluster().nodeId();
        long epoch = cut.status().cluster().epoch();
        long cutAt = System.nanoTime();
        links.get(cutId).cut();

        List<AxEngine> rest = nodes.stream().filter(e -> e != cut).toList();
        AxEngine next = leader(rest);
        Duration takeover = Duration.ofNanos(System.nanoTime() - cutAt);
        assertThat(next.status().cluster().epoch()).isGreaterThan(epoch);
        // the bound of the issue (lease + heartbeat), plus the await's own polling and a loaded machine's slack
        assertThat(takeover).isLessThan(FAST.lease().plus(FAST.heartbeat()).plus(Duration.ofSeconds(2)));
        await().atMost(BOUND).until(() -> !cut.status().cluster().isLeader());

        links.get(cutId).heal();
        // it rejoins as a follower: it sees all three nodes and the leader that took over
        await().atMost(BOUND)
                .until(() -> cut.status().cluster().liveNodes().size() == 3
                        && next.status()
                                .cluster()
                                .nodeId()
                                .equals(cut.status().cluster().leader()));
        assertThat(cut.status().cluster().isLeader()).isFalse();
    }

    @Test
    void aLeaderWhoseCallsHangStopsDecidingByItsOwnDeadlineSaysSoAndStopsItsRunningWork() {
        AxTask slow = task("slow")
                .concurrent(true)
                .retry(new RetryPolicy(3, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build();
        List<AxEngine> nodes = threeNodes(slow);
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch never = new CountDownLatch(1);
        executor.when("slow", ctx -> {
            if (ctx.attempt() == 1) {
                try {
                    never.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    throw e;
                }
            }
            return io.ax.core.AxResult.success();
        });
        AxEngine leader = leader(nodes);
        String leaderId = leader.status().cluster().nodeId();
        // an instance that runs on the leader
        String id = null;
        for (int i = 0; i < 50 && id == null; i++) {
            String candidate = leader.schedule("slow", Duration.ZERO, null);
            await().atMost(BOUND).until(() -> state(candidate) == InstanceState.RUNNING);
            if (leaderId.equals(db.queryForObject(
                    "SELECT owner FROM " + PREFIX + "instance WHERE id = ?", String.class, candidate))) {
                id = candidate;
            } // one that runs on a follower blocks there until the test ends
        }
        assertThat(id).as("an instance running on the leader").isNotNull();

        // the leader's heartbeat and lease calls hang: no error ever comes back to it
        long hungAt = System.nanoTime();
        links.get(leaderId).hang();
        await().atMost(BOUND).until(() -> !leader.status().cluster().isLeader());
        Duration steppedDown = Duration.ofNanos(System.nanoTime() - hungAt);
        assertThat(leader.status().cluster().role()).isEqualTo(io.ax.core.cluster.ClusterView.Role.STANDBY);
        // by its own clock: its lease less the safety margin after the last renewal, plus a loaded machine's slack
        assertThat(steppedDown).isLessThan(FAST.lease().plus(Duration.ofSeconds(2)));
        await().atMost(BOUND).untilTrue(interrupted);
        assertThat(leader.status().storeContact())
                .as("what the node says of its contact with the store")
                .hasValueSatisfying(c -> {
                    assertThat(c.cutOff()).isTrue();
                    assertThat(c.failure()).isNull();
                    assertThat(c.waitingIn()).as("where its heartbeat waits").contains("Cuttable.await");
                });

        links.get(leaderId).heal();
        String running = id;
        await().atMost(BOUND).until(() -> state(running) == InstanceState.SUCCESS);
        await().atMost(BOUND).until(() -> leader.status().storeContact().isEmpty());
        List<String> trail = db.queryForList(
                "SELECT to_state FROM " + PREFIX + "audit WHERE instance_id = ? ORDER BY id", String.class, running);
        assertThat(trail.stream().filter("FAILED"::equals))
                .as("the interrupted attempt, recorded once (by itself or by the leader's takeover): %s", trail)
                .hasSize(1);
        assertThat(executor.runsOf("slow").stream()
                        .filter(c -> c.instanceId().equals(running))
                        .map(AxContext::attempt))
                .as("its attempts (one given back unstarted keeps its number)")
                .containsExactly(1, 2);
        List<AxContext> attempts = executor.runsOf("slow").stream()
                .filter(c -> c.instanceId().equals(running))
                .toList();
        assertThat(attempts.get(0).epoch()).as("the cut leader's epoch").isPositive();
        assertThat(attempts.get(1).fencingToken())
                .as("the fencing token of the attempt that ran after the cut")
                .isGreaterThan(attempts.get(0).fencingToken());
    }

    @Test
    void aNodeThatDiesHasItsUnfinishedWorkTakenOverOnce() {
        AxTask slow = task("slow")
                .concurrent(true)
                .retry(new RetryPolicy(3, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build();
        List<AxEngine> nodes = threeNodes(slow);
        CountDownLatch never = new CountDownLatch(1);
        executor.when("slow", ctx -> {
            if (ctx.attempt() == 1) {
                never.await(BOUND.toMillis(), TimeUnit.MILLISECONDS); // the node "dies" with it in its hands
            }
            return io.ax.core.AxResult.success();
        });
        AxEngine leader = leader(nodes);
        // an instance assigned to a follower: schedule until one lands on a node other than the leader
        String id = null;
        String victim = null;
        for (int i = 0; i < 50 && victim == null; i++) {
            String candidate = leader.schedule("slow", Duration.ZERO, null);
            await().atMost(BOUND).until(() -> state(candidate) == InstanceState.RUNNING);
            String owner =
                    db.queryForObject("SELECT owner FROM " + PREFIX + "instance WHERE id = ?", String.class, candidate);
            if (!owner.equals(leader.status().cluster().nodeId())) {
                id = candidate;
                victim = owner;
            }
        }
        assertThat(victim).as("an instance running on a follower").isNotNull();
        String dead = victim;
        links.get(dead).cut(); // its heartbeat stops; its worker goes on, as a frozen node's would when it wakes
        String running = id;
        await().atMost(BOUND).until(() -> state(running) == InstanceState.SUCCESS);
        List<String> trail = db.queryForList(
                "SELECT to_state FROM " + PREFIX + "audit WHERE instance_id = ? ORDER BY id", String.class, running);
        assertThat(trail).endsWith("RUNNING", "FAILED", "RETRYING", "RUNNING", "SUCCESS");
        assertThat(trail.stream().filter("FAILED"::equals))
                .as("taken over exactly once")
                .hasSize(1);
        // cut off, the node interrupted its attempt and recorded it FAILED; its retry came due while it was still
        // cut off, and it must not have claimed it: a claim it does not start reads as a running attempt to the
        // takeover, which records it FAILED as well, and an attempt that never ran uses up a retry
        assertThat(db.queryForObject(
                        "SELECT COUNT(*) FROM " + PREFIX + "audit WHERE instance_id = ? AND to_state = 'RUNNING'"
                                + " AND node = ?",
                        Integer.class,
                        running,
                        dead))
                .as("claims by the node cut off: its first attempt only")
                .isEqualTo(1);
        assertThat(db.queryForObject("SELECT owner FROM " + PREFIX + "instance WHERE id = ?", String.class, running))
                .isNotEqualTo(dead);
        List<AxContext> attempts = executor.runsOf("slow").stream()
                .filter(c -> c.instanceId().equals(running))
                .toList();
        assertThat(attempts).extracting(AxContext::attempt).containsExactly(1, 2);
        assertThat(attempts.get(1).epoch()).as("the takeover's epoch").isPositive();
        assertThat(attempts.get(1).fencingToken())
                .as("the fencing token of the attempt after the takeover")
                .isGreaterThan(attempts.get(0).fencingToken());
    }

    @Test
    void aDeadNodesRunningAttemptIsRetriedOnlyOnceALeaseAndTheMarginHavePassedSinceItsClaim() {
        AxTask slow = task("slow")
                .concurrent(true)
                .retry(new RetryPolicy(3, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build();
        AxEngine node = node("n1", slow);
        node.start();
        String id = node.schedule("slow", Duration.ofHours(1), null);
        // a node that never heartbeats here claimed it just now and froze with it in its hands: judged dead by its
        // heartbeat at once, it may still run that attempt until its own watch stops it
        long claimedUs = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        assertThat(db.update(
                        "UPDATE " + PREFIX + "instance SET state = 'RUNNING', attempt = 1, node = 'ghost',"
                                + " owner = 'ghost', updated_us = ? WHERE id = ? AND state = 'SCHEDULED'",
                        claimedUs,
                        id))
                .isEqualTo(1);

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);

        long failedUs = db.queryForObject(
                "SELECT at_us FROM " + PREFIX + "audit WHERE instance_id = ? AND to_state = 'FAILED'", Long.class, id);
        assertThat(Duration.of(failedUs - claimedUs, ChronoUnit.MICROS))
                .as("from the dead node's claim to the takeover of its attempt")
                .isGreaterThanOrEqualTo(FAST.lease().plus(FAST.safetyMargin()));
        assertThat(executor.runsOf("slow").stream()
                        .filter(c -> c.instanceId().equals(id))
                        .map(AxContext::attempt))
                .containsExactly(2);
    }

    /**
     * A dead node may leave thousands of attempts RUNNING (those it had claimed into its pools' queues): they are taken
     * over together, in a few group writes, not one write (and one round trip) after another.
     */
    @Test
    void aDeadNodesRunningAttemptsAreTakenOverTogetherRatherThanOneWriteEach() {
        int orphans = 200;
        AxTask retried = task("retried")
                .concurrent(true)
                .retry(new RetryPolicy(3, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build();
        AxTask once = task("once").concurrent(true).retry(RetryPolicy.none()).build();
        FailingStore store = new FailingStore(new JdbcInstanceStore(dataSource, PREFIX));
        AtomicInteger writesOfFailures = new AtomicInteger();
        store.beforeTransitions(changes -> {
            if (changes.stream().anyMatch(t -> t.to() == InstanceState.FAILED)) {
                writesOfFailures.incrementAndGet();
            }
        });
        AxEngine node = node("n1", store, FAST, WakeUps.none(), new PoolSettings(8, 1_000), retried, once);
        ch.qos.logback.classic.Logger log =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(AxEngine.class.getName());
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured =
                new ch.qos.logback.core.read.ListAppender<>();
        captured.start();
        log.addAppender(captured);
        try {
            takeOverTogether(node, store, writesOfFailures, orphans, captured);
        } finally {
            log.detachAppender(captured);
        }
    }

    private void takeOverTogether(
            AxEngine node,
            FailingStore store,
            AtomicInteger writesOfFailures,
            int orphans,
            ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured) {
        node.start();
        for (int i = 0; i < orphans; i++) {
            node.schedule(i % 2 == 0 ? "retried" : "once", Duration.ofHours(1), null);
        }
        // a node that never heartbeats here claimed them all a while ago and died with them in its hands
        long claimedUs = ChronoUnit.MICROS.between(
                Instant.EPOCH,
                Instant.now().minus(FAST.lease().plus(FAST.safetyMargin())).minusSeconds(1));
        assertThat(db.update(
                        "UPDATE " + PREFIX + "instance SET state = 'RUNNING', attempt = 1, node = 'ghost',"
                                + " owner = 'ghost', updated_us = ? WHERE state = 'SCHEDULED'",
                        claimedUs))
                .isEqualTo(orphans);

        // a takeover is no failure of the handler: the tasks without retries run again too
        await().atMost(BOUND).until(() -> countIn("instance", "state = 'SUCCESS'") == orphans);
        assertThat(countIn("audit", "to_state = 'FAILED' AND reason LIKE 'takeover: node ghost %'"))
                .as("each attempt taken over once")
                .isEqualTo(orphans);
        assertThat(countIn("instance", "state = 'DEAD'")).isZero();
        assertThat(executor.runsOf("retried")).extracting(AxContext::attempt).containsOnly(2);
        assertThat(executor.runsOf("once")).extracting(AxContext::attempt).containsOnly(2);
        assertThat(writesOfFailures.get())
                .as("group writes that took the %d attempts over", orphans)
                .isLessThanOrEqualTo(orphans / 20);
        List<String> warnings;
        synchronized (captured) { // the appender adds under its own lock
            warnings = captured.list.stream()
                    .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                    .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                    .toList();
        }
        assertThat(warnings)
                .as("the retries of the lot said in one line, not one each")
                .noneMatch(w -> w.contains("retrying in"))
                .filteredOn(w -> w.contains("took over"))
                .singleElement()
                .satisfies(w -> assertThat(w)
                        .contains(orphans + " attempt(s) left RUNNING by [ghost]")
                        .contains("{once=" + (orphans / 2) + ", retried=" + (orphans / 2) + "}"));
    }

    private long countIn(String table, String condition) {
        return db.queryForObject("SELECT COUNT(*) FROM " + PREFIX + table + " WHERE " + condition, Long.class);
    }

    @Test
    void aNodeThatWinsTheLeaseOnItsFirstRoundLeavesTheRunningWorkOfLiveNodesAlone() {
        AxTask slow = task("slow").concurrent(true).build();
        List<AxEngine> nodes = threeNodes(slow);
        CountDownLatch release = new CountDownLatch(1);
        executor.when("slow", ctx -> {
            release.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return io.ax.core.AxResult.success();
        });
        AxEngine leader = leader(nodes);
        List<ScheduleRequest> requests = new ArrayList<>();
        // four in each node's partitions (a delayed instance's key names its partition): twelve without keys
        // left a node without running work now and then (each of three nodes misses all twelve with 0.8 %)
        Map<String, Set<Integer>> owned = assertSettled(nodes);
        int count = nodes.get(0).status().partitions().orElseThrow().count();
        for (AxEngine n : nodes) {
            int found = 0;
            for (int j = 0; found < 4; j++) {
                String key = n.nodeId() + "-" + j;
                if (owned.get(n.nodeId()).contains(io.ax.core.cluster.Partitions.of(key, count))) {
                    requests.add(ScheduleRequest.of("slow").key(key).after(Duration.ofMillis(200)));
                    found++;
                }
            }
        }
        List<String> ids = leader.scheduleAll(requests);
        await().atMost(BOUND)
                .until(() -> nodes.stream().allMatch(e -> e.status().executing() > 0));
        await().atMost(BOUND).until(() -> ids.stream().allMatch(id -> state(id) == InstanceState.RUNNING));

        // every node keeps its heartbeat and its running work, but none holds the lease any longer: the leader's
        // runs out, and no standby takes it (as when the leader died and the others lose every race for it)
        nodes.forEach(n -> links.get(n.status().cluster().nodeId()).refuseLease());
        JdbcLeaderLease lease = new JdbcLeaderLease(dataSource, PREFIX);
        await().atMost(BOUND).until(() -> !lease.current().held());
        // a new node (a rolling deploy's new pod) wins the lease on its first round, and leads at once
        AxEngine fresh = node("n4", slow);
        fresh.start();
        assertThat(fresh.status().cluster().isLeader())
                .as("the new node leads after its start")
                .isTrue();

        release.countDown();
        await().atMost(BOUND).until(() -> ids.stream().allMatch(id -> state(id).isFinal()));
        assertThat(db.queryForList("SELECT reason FROM " + PREFIX + "audit WHERE to_state = 'FAILED'", String.class))
                .as("running attempts of live nodes taken over as orphans")
                .isEmpty();
        Map<String, Long> runsPerInstance = executor.runsOf("slow").stream()
                .collect(Collectors.groupingBy(AxContext::instanceId, Collectors.counting()));
        assertThat(runsPerInstance).hasSize(ids.size());
        assertThat(runsPerInstance.values()).as("an instance run twice").allMatch(n -> n == 1);
        assertThat(ids).allMatch(id -> state(id) == InstanceState.SUCCESS);
    }

    @Test
    void aLeadersGroupOfFiresIsWrittenAtItsEpoch() {
        // a takeover plans a catch-up and a next fire, or several series, in one group: MariaDB's driver sends such a
        // batch of fenced inserts (INSERT ... SELECT) in the server's bulk protocol, which refuses it (error 1295)
        JdbcInstanceStore store = new JdbcInstanceStore(dataSource, PREFIX);
        JdbcLeaderLease lease = new JdbcLeaderLease(dataSource, PREFIX);
        long epoch =
                lease.acquire("leader", Duration.ofSeconds(30)).orElseThrow().epoch();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        for (int round = 0; round < 2; round++) { // the second group meets what the first one learnt
            List<NewFire> group = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                group.add(new NewFire(
                        new TaskInstance(
                                UUID.randomUUID().toString(),
                                "job-" + i,
                                now.plusSeconds(round * 10L + i),
                                InstanceState.SCHEDULED,
                                0,
                                "leader",
                                now),
                        "next fire"));
            }
            assertThat(store.schedule(group, epoch)).as("round " + round).containsExactly(true, true, true);
        }
        assertThat(db.queryForObject("SELECT COUNT(*) FROM " + PREFIX + "instance", Integer.class))
                .isEqualTo(6);
    }

    @Test
    void aDeposedLeadersLateWriteIsRejected() {
        JdbcInstanceStore store = new JdbcInstanceStore(dataSource, PREFIX);
        JdbcLeaderLease lease = new JdbcLeaderLease(dataSource, PREFIX);
        Lease old = lease.acquire("old-leader", Duration.ofMillis(200)).orElseThrow();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        TaskInstance instance = new TaskInstance(
                UUID.randomUUID().toString(), "job", now, InstanceState.SCHEDULED, 0, "old-leader", now);
        store.schedule(List.of(new NewFire(instance, "test")));
        await().atMost(BOUND)
                .until(() -> lease.acquire("new-leader", Duration.ofSeconds(5)).isPresent());
        long current = lease.current().epoch();
        assertThat(current).isGreaterThan(old.epoch());

        Transition late = new Transition(
                        instance.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED, 1, "old-leader", now, "late")
                .assignedTo("old-leader", old.epoch());
        assertThatThrownBy(() -> store.transitionAll(List.of(late)))
                .isInstanceOf(FencedOutException.class)
                .hasMessageContaining("epoch " + old.epoch());
        assertThatThrownBy(() -> store.schedule(
                        List.of(new NewFire(
                                new TaskInstance(
                                        UUID.randomUUID().toString(),
                                        "job",
                                        now.plusSeconds(1),
                                        InstanceState.SCHEDULED,
                                        0,
                                        "old-leader",
                                        now),
                                "late fire")),
                        old.epoch()))
                .isInstanceOf(FencedOutException.class);
        assertThat(state(instance.id())).as("unchanged").isEqualTo(InstanceState.SCHEDULED);
        assertThat(db.queryForObject("SELECT COUNT(*) FROM " + PREFIX + "instance", Integer.class))
                .isEqualTo(1);
        assertThat(store.transitionAll(List.of(late.assignedTo("new-leader", current))))
                .containsExactly(true);
    }

    /**
     * A team scales from one replica to three and back to two while a series fires every 50 ms and delayed work
     * arrives at every step: each change of the node set moves only the partitions it must (a joining node takes its
     * share from the others, nothing moves between nodes that stay), the partitions end spread within one of each
     * other, and no fire time has two instances, no delayed instance runs twice and none is left behind.
     */
    @Test
    void aClusterScaledFromOneToThreeNodesAndBackToTwoMovesOnlyWhatItMustAndLosesNothing() {
        // MEMORY series live in the process of their partition's owner: a move hands them over, never runs them twice
        List<AxTask> all = new ArrayList<>(
                List.of(every("tick", Duration.ofMillis(50)), task("job").build()));
        for (int i = 0; i < MEMORY_SERIES; i++) {
            all.add(task("memo" + i)
                    .durability(Durability.MEMORY)
                    .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(100), Duration.ZERO))
                    .build());
        }
        AxTask[] tasks = all.toArray(AxTask[]::new);
        List<String> ids = new ArrayList<>();
        AxEngine n1 = node("n1", tasks);
        n1.start();
        ids.addAll(n1.scheduleAll(spread(100)));
        assertSettled(List.of(n1));

        AxEngine n2 = node("n2", tasks);
        n2.start();
        ids.addAll(n2.scheduleAll(spread(100)));
        Map<String, Set<Integer>> two = assertSettled(List.of(n1, n2));

        AxEngine n3 = node("n3", tasks);
        n3.start();
        ids.addAll(n3.scheduleAll(spread(100)));
        Map<String, Set<Integer>> three = assertSettled(List.of(n1, n2, n3));
        assertThat(two.get("n1")).as("n1 keeps what it had but n3's share").containsAll(three.get("n1"));
        assertThat(two.get("n2")).as("n2 keeps what it had but n3's share").containsAll(three.get("n2"));

        ids.addAll(n2.scheduleAll(spread(100)));
        n2.stop();
        ids.addAll(n1.scheduleAll(spread(100)));
        Map<String, Set<Integer>> after = assertSettled(List.of(n1, n3));
        assertThat(after.get("n1")).as("n1 keeps all it had").containsAll(three.get("n1"));
        assertThat(after.get("n3")).as("n3 keeps all it had").containsAll(three.get("n3"));
        int ticks = executor.runsOf("tick").size();
        await().atMost(BOUND).until(() -> executor.runsOf("tick").size() > ticks + 5); // the series goes on

        await().atMost(BOUND).until(() -> ids.stream().allMatch(id -> state(id) == InstanceState.SUCCESS));
        assertOneInstancePerFireTimeAndOneRunPerInstance();
        assertThat(executor.runsOf("job")).as("delayed instances run").hasSize(ids.size());
        assertMemorySeriesRanOncePerFireTime();
    }

    /** How many MEMORY series the scaled cluster runs: enough that some of their partitions move (checked). */
    private static final int MEMORY_SERIES = 8;

    private void assertMemorySeriesRanOncePerFireTime() {
        Set<String> movedSeries = new java.util.HashSet<>();
        for (int i = 0; i < MEMORY_SERIES; i++) {
            List<AxContext> runs = executor.runsOf("memo" + i);
            assertThat(runs).as("memo" + i + " runs").isNotEmpty();
            Map<Instant, List<String>> nodesPerFire = runs.stream()
                    .collect(Collectors.groupingBy(
                            AxContext::scheduledTime, Collectors.mapping(AxContext::nodeId, Collectors.toList())));
            assertThat(nodesPerFire)
                    .as("a fire time of memo" + i + " run more than once")
                    .allSatisfy((time, nodes) -> assertThat(nodes).hasSize(1));
            if (runs.stream().map(AxContext::nodeId).distinct().count() > 1) {
                movedSeries.add("memo" + i);
            }
        }
        assertThat(movedSeries).as("MEMORY series whose partition moved").isNotEmpty();
    }

    /**
     * An attempt outlives the move of its partition: six non-overlapping tasks start long runs (fewer than a node's eight
     * threads) on the one node of the
     * cluster, two nodes join and take about two thirds of the partitions, and while the runs go on a second run of
     * each task is asked for. None starts beside its task's first (its slot is held by the live previous owner's
     * run, wherever the task's partition went), and every first run ends on the node that started it, on its first
     * attempt, its end recorded though the partition is another node's by then.
     */
    @Test
    void anAttemptOutlivesTheMoveOfItsPartitionAndKeepsItsTasksSlot() {
        CountDownLatch letGo = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        List<AxTask> tasks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String name = "long" + i;
            tasks.add(task(name).build());
            executor.when(name, ctx -> {
                running.incrementAndGet();
                try {
                    letGo.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
                } finally {
                    running.decrementAndGet();
                }
                return io.ax.core.AxResult.success();
            });
        }
        AxTask[] all = tasks.toArray(AxTask[]::new);
        AxEngine n1 = node("n1", all);
        n1.start();
        List<String> first = tasks.stream().map(t -> n1.triggerNow(t.name())).toList();
        await().atMost(BOUND).until(() -> running.get() == 6);

        AxEngine n2 = node("n2", all);
        n2.start();
        AxEngine n3 = node("n3", all);
        n3.start();
        Map<String, Set<Integer>> owned = assertSettled(List.of(n1, n2, n3));
        int count = n1.status().partitions().orElseThrow().count();
        long moved = tasks.stream()
                .filter(t -> !owned.get("n1").contains(io.ax.core.cluster.Partitions.of(t.name(), count)))
                .count();
        assertThat(moved).as("tasks whose partition moved to n2 or n3").isPositive();

        List<String> second = tasks.stream().map(t -> n3.triggerNow(t.name())).toList();
        await().atMost(BOUND)
                .until(() -> second.stream().allMatch(id -> state(id).isFinal()));
        assertThat(second)
                .as("second runs asked for while the first runs went on")
                .allSatisfy(id -> assertThat(state(id)).isEqualTo(InstanceState.SKIPPED));
        assertThat(running.get()).as("runs under way").isEqualTo(6);

        letGo.countDown();
        await().atMost(BOUND).until(() -> first.stream().allMatch(id -> state(id) == InstanceState.SUCCESS));
        assertThat(executor.runs())
                .as("runs: each first run once, on n1, attempt 1; no second run")
                .hasSize(6)
                .allSatisfy(ctx -> {
                    assertThat(first).contains(ctx.instanceId());
                    assertThat(ctx.nodeId()).isEqualTo("n1");
                    assertThat(ctx.attempt()).isEqualTo(1);
                });
        // and the tasks run again once their slots are free, on whichever node decides them now
        List<String> third = tasks.stream().map(t -> n2.triggerNow(t.name())).toList();
        await().atMost(BOUND).until(() -> third.stream().allMatch(id -> state(id) == InstanceState.SUCCESS));
    }

    /**
     * A node that gains partitions reads the rows in flight of those partitions only (to take over their slots, and
     * the work of nodes that are gone), never every row in flight in the cluster: a move costs what moved. Seen at
     * the joining node's store, while the first node has work in flight in all of its partitions.
     */
    @Test
    void aNodeThatGainsPartitionsReadsTheRowsInFlightOfThosePartitionsOnly() {
        CountDownLatch letGo = new CountDownLatch(1);
        executor.when("held", ctx -> {
            letGo.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return io.ax.core.AxResult.success();
        });
        AxTask held = task("held").concurrent(true).build();
        AxEngine n1 = node("n1", held);
        n1.start();
        List<String> inFlight = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            inFlight.add(n1.schedule("held", Duration.ZERO, "key" + i));
        }
        await().atMost(BOUND).until(() -> inFlight.stream().allMatch(id -> state(id) == InstanceState.RUNNING));

        FailingStore store = new FailingStore(new JdbcInstanceStore(dataSource, PREFIX));
        List<FailingStore.InFlightRead> reads = new java.util.concurrent.CopyOnWriteArrayList<>();
        store.inFlightReads(reads::add);
        AxEngine n2 = node("n2", store, FAST, WakeUps.none(), new PoolSettings(8, 1_000), held);
        n2.start();
        Map<String, Set<Integer>> owned = assertSettled(List.of(n1, n2));
        await().atMost(BOUND).until(() -> reads.stream().anyMatch(r -> r.partitions() != null));

        assertThat(reads)
                .as("n2's reads of other nodes' rows in flight")
                .filteredOn(r -> !"n2".equals(r.owner()))
                .isNotEmpty()
                .allSatisfy(r -> {
                    assertThat(r.partitions()).as("partitions named").isNotNull();
                    assertThat(Arrays.stream(r.partitions()).boxed().toList())
                            .as("partitions read")
                            .isSubsetOf(owned.get("n2"));
                });
        letGo.countDown();
        await().atMost(BOUND).until(() -> inFlight.stream().allMatch(id -> state(id) == InstanceState.SUCCESS));
    }

    /**
     * A task that must not overlap keeps not overlapping while the nodes that could run it change: one node, then
     * three, then two, under a series whose runs outlast its period. Read from the runs themselves (one JVM, one
     * monotonic clock), not from the store.
     */
    @Test
    void aNonOverlappingTaskNeverOverlapsWhileTheClusterGrowsAndShrinks() {
        List<long[]> runs = java.util.Collections.synchronizedList(new ArrayList<>());
        executor.when("slow", ctx -> {
            long start = System.nanoTime();
            Thread.sleep(120);
            runs.add(new long[] {start, System.nanoTime()});
            return io.ax.core.AxResult.success();
        });
        AxTask slow = task("slow")
                .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(50), Duration.ZERO))
                .build();
        AxEngine n1 = node("n1", slow);
        n1.start();
        await().atMost(BOUND).until(() -> runs.size() >= 3);
        AxEngine n2 = node("n2", slow);
        n2.start();
        await().atMost(BOUND).until(() -> runs.size() >= 8);
        AxEngine n3 = node("n3", slow);
        n3.start();
        await().atMost(BOUND).until(() -> runs.size() >= 13);
        n2.stop();
        await().atMost(BOUND).until(() -> runs.size() >= 18);

        List<long[]> ordered = new ArrayList<>(runs);
        ordered.sort(java.util.Comparator.comparingLong(r -> r[0]));
        for (int i = 1; i < ordered.size(); i++) {
            assertThat(ordered.get(i)[0])
                    .as("run %d starts before run %d ended", i, i - 1)
                    .isGreaterThanOrEqualTo(ordered.get(i - 1)[1]);
        }
    }

    /**
     * A pause made before the cluster grows holds on every node that comes to own the task (none fires it, each
     * knows it is paused), and a resume on the newest node starts the series again.
     */
    @Test
    void aPauseHoldsWhileTheClusterGrowsAndAResumeOnTheNewestNodeStartsTheSeriesAgain() {
        AxTask tick = every("tick", Duration.ofMillis(50));
        AxEngine n1 = node("n1", tick);
        n1.start();
        await().atMost(BOUND).until(() -> executor.runsOf("tick").size() >= 3);
        n1.pause("tick");
        // a fire already on its way when the pause came may still run: the count settles, then must stay
        java.util.concurrent.atomic.AtomicInteger seen = new java.util.concurrent.atomic.AtomicInteger(-1);
        await().atMost(BOUND).pollInterval(Duration.ofMillis(200)).until(() -> {
            int now = executor.runsOf("tick").size();
            return seen.getAndSet(now) == now; // unchanged since the last look, 200 ms ago
        });
        int paused = executor.runsOf("tick").size();

        AxEngine n2 = node("n2", tick);
        n2.start();
        AxEngine n3 = node("n3", tick);
        n3.start();
        assertSettled(List.of(n1, n2, n3));
        await().during(Duration.ofMillis(500))
                .atMost(BOUND)
                .until(() -> executor.runsOf("tick").size() == paused);
        await().atMost(BOUND)
                .alias("every node knows the task is paused, wherever the pause was made")
                .until(() -> List.of(n1, n2, n3).stream().allMatch(e -> e.isPaused("tick")));

        n3.resume("tick");
        await().atMost(BOUND).until(() -> executor.runsOf("tick").size() > paused + 5);
    }

    /**
     * A MEMORY execution lives on the node that scheduled it, and waits there while its task is paused, wherever the
     * pause was made; the resume, made on another node, lets it run.
     */
    @Test
    void aMemoryExecutionWaitsWhileItsTaskIsPausedOnAnotherNodeAndRunsAtTheResume() {
        AxTask memo = task("memo").durability(io.ax.core.Durability.MEMORY).build();
        AxEngine n1 = node("n1", memo);
        n1.start();
        AxEngine n2 = node("n2", memo);
        n2.start();
        await().atMost(BOUND).until(() -> n2.status().cluster().liveNodes().size() == 2);
        n1.pause("memo");
        await().atMost(BOUND).until(() -> n2.isPaused("memo"));

        String id = n2.schedule(ScheduleRequest.of("memo").after(Duration.ZERO));
        await().during(Duration.ofMillis(500))
                .atMost(BOUND)
                .until(() -> executor.runsOf("memo").isEmpty());

        n1.resume("memo");
        await().atMost(BOUND).until(() -> executor.runsOf("memo").size() == 1);
        assertThat(executor.runsOf("memo").get(0).instanceId()).isEqualTo(id);
        assertThat(executor.runsOf("memo").get(0).nodeId()).isEqualTo("n2");
    }

    /**
     * A MEMORY execution waiting for its paused task lives in its node's process, whoever leads: the node's leadership
     * ending (a cut of its lease) does not drop it, and it runs at the resume made on the next leader.
     */
    @Test
    void aMemoryExecutionWaitingForItsPausedTaskOutlivesItsNodesLeadership() {
        AxTask memo = task("memo").durability(io.ax.core.Durability.MEMORY).build();
        AxEngine n1 = node("n1", memo);
        n1.start();
        await().atMost(BOUND).until(() -> n1.status().cluster().isLeader());
        AxEngine n2 = node("n2", memo);
        n2.start();
        await().atMost(BOUND).until(() -> n2.status().cluster().liveNodes().size() == 2);
        n1.pause("memo");
        String id = n1.schedule(ScheduleRequest.of("memo").after(Duration.ZERO));
        await().during(Duration.ofMillis(300))
                .atMost(BOUND)
                .until(() -> executor.runsOf("memo").isEmpty());

        links.get("n1").cut(); // n1 loses the lease; n2 takes it
        await().atMost(BOUND)
                .until(() -> n2.status().cluster().isLeader()
                        && !n1.status().cluster().isLeader());
        links.get("n1").heal();
        await().atMost(BOUND).until(() -> n1.status().cluster().liveNodes().size() == 2);
        n2.resume("memo");

        await().atMost(BOUND).until(() -> executor.runsOf("memo").size() == 1);
        assertThat(executor.runsOf("memo").get(0).instanceId()).isEqualTo(id);
        assertThat(executor.runsOf("memo").get(0).nodeId()).isEqualTo("n1");
    }

    /** No fire time of a series has two instances in the store, and no instance ran twice. */
    private void assertOneInstancePerFireTimeAndOneRunPerInstance() {
        assertThat(db.queryForList(
                        "SELECT task_name FROM " + PREFIX + "instance WHERE origin = 'SERIES'"
                                + " GROUP BY task_name, scheduled_us HAVING COUNT(*) > 1",
                        String.class))
                .as("two instances for one fire time")
                .isEmpty();
        Map<String, Long> runsPerInstance =
                executor.runs().stream().collect(Collectors.groupingBy(AxContext::instanceId, Collectors.counting()));
        assertThat(runsPerInstance.values()).as("an instance run twice").allMatch(n -> n == 1);
    }

    /** Delayed jobs due over the next second, as traffic that keeps arriving while the cluster changes. */
    private static List<ScheduleRequest> spread(int n) {
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            requests.add(ScheduleRequest.of("job").after(Duration.ofMillis(10L * i)));
        }
        return requests;
    }

    /**
     * Waits until the running nodes own every partition between them, each once, their counts within one of each
     * other, as each node sees its own share; returns what each owns then.
     */
    private static Map<String, Set<Integer>> assertSettled(List<AxEngine> nodes) {
        Map<String, Set<Integer>> settled = new HashMap<>();
        await().atMost(BOUND).until(() -> {
            settled.clear();
            int count = nodes.get(0).status().partitions().orElseThrow().count();
            Set<Integer> all = new java.util.HashSet<>();
            int sum = 0;
            for (AxEngine e : nodes) {
                Set<Integer> owned =
                        Set.copyOf(e.status().partitions().orElseThrow().owned().keySet());
                settled.put(e.nodeId(), owned);
                all.addAll(owned);
                sum += owned.size();
            }
            IntSummaryStatistics sizes =
                    settled.values().stream().mapToInt(Set::size).summaryStatistics();
            return all.size() == count && sum == count && sizes.getMax() - sizes.getMin() <= 1;
        });
        return Map.copyOf(settled);
    }

    @Test
    void nodesStartingAtTheSameMomentOnEmptyTablesAllStart() throws Exception {
        AxTask[] tasks = new AxTask[200];
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = task("t" + i).build();
        }
        List<AxEngine> nodes = List.of(node("n1", tasks), node("n2", tasks), node("n3", tasks));
        CountDownLatch go = new CountDownLatch(1);
        List<java.util.concurrent.Future<?>> started = new ArrayList<>();
        java.util.concurrent.ExecutorService starters = Executors.newFixedThreadPool(3);
        try {
            for (AxEngine e : nodes) {
                started.add(starters.submit(() -> {
                    go.await();
                    e.start();
                    return null;
                }));
            }
            go.countDown();
            for (java.util.concurrent.Future<?> f : started) {
                f.get(BOUND.toSeconds(), TimeUnit.SECONDS); // throws if a start failed
            }
        } finally {
            starters.shutdownNow();
        }
        assertThat(nodes).allMatch(AxEngine::isRunning);
        assertThat(db.queryForObject("SELECT COUNT(*) FROM " + PREFIX + "task", Integer.class))
                .isEqualTo(200);
        leader(nodes);
    }

    @Test
    void twoLiveNodesWithOneIdIsAClearStartUpError() {
        // a lease of 4 s: with FAST's 1 s, a loaded machine that delays the first node's heartbeats lets its row
        // expire, and the second start rightly takes the id over; the second start waits a lease and a heartbeat
        ClusterSettings settings = new ClusterSettings(
                Duration.ofMillis(400), Duration.ofSeconds(4), Duration.ofSeconds(1), Duration.ofMillis(200), 32);
        node("twin", settings).start();
        AxEngine second = node("twin", settings);
        assertThatThrownBy(second::start)
                .isInstanceOf(io.ax.core.cluster.NodeIdInUseException.class)
                .hasMessageContaining("twin");
        engines.remove(second);
    }

    private int count(String condition) {
        Integer n = db.queryForObject("SELECT COUNT(*) FROM " + PREFIX + "instance WHERE " + condition, Integer.class);
        return n == null ? 0 : n;
    }

    private InstanceState state(String id) {
        return InstanceState.valueOf(
                db.queryForObject("SELECT state FROM " + PREFIX + "instance WHERE id = ?", String.class, id));
    }

    /** Wake-ups between the engines of this JVM, delivered on a thread of their own, as a database's would be. */
    static final class InJvmWakeUps {
        private final List<Consumer<String>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final java.util.concurrent.ExecutorService delivery = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "test-wake-ups");
            t.setDaemon(true);
            return t;
        });

        /** One node's end of the wake-ups: it hears every signal sent by any node, until its close. */
        WakeUps node() {
            return new WakeUps() {
                private volatile Consumer<String> mine;

                @Override
                public void signal(Collection<String> signals) {
                    List<String> copy = List.copyOf(signals);
                    delivery.execute(() -> copy.forEach(s -> listeners.forEach(l -> l.accept(s))));
                }

                @Override
                public void listen(Consumer<String> onSignal) {
                    mine = onSignal;
                    listeners.add(onSignal);
                }

                @Override
                public void close() {
                    listeners.remove(mine);
                }
            };
        }
    }

    /** A node's line to the lease and registry tables, cut and healed on command: a network partition. */
    static final class Cuttable implements EpochMirroringLease, NodeRegistry {
        private final JdbcLeaderLease lease;
        private final NodeRegistry registry;
        private volatile boolean cut;
        /** The node neither takes nor renews the lease (it loses every race for it); all else passes. */
        private volatile boolean noLease;
        /** Calls wait, without failing, until {@link #heal} (a network that drops packets without a word). */
        private final java.util.concurrent.atomic.AtomicReference<CountDownLatch> hung =
                new java.util.concurrent.atomic.AtomicReference<>();

        private final java.util.concurrent.atomic.AtomicReference<CountDownLatch> heldCurrent =
                new java.util.concurrent.atomic.AtomicReference<>();
        private final java.util.concurrent.atomic.AtomicReference<CountDownLatch> hungHeartbeats =
                new java.util.concurrent.atomic.AtomicReference<>();
        private volatile long heartbeatHungSince;

        Cuttable(JdbcLeaderLease lease, NodeRegistry registry) {
            this.lease = lease;
            this.registry = registry;
        }

        void cut() {
            cut = true;
        }

        /** The store's own lease: the epochs this lease grants are its, and fence the store's writes. */
        @Override
        public EpochFence fence() {
            return lease;
        }

        void heal() {
            cut = false;
            for (var latch : List.of(hung, hungHeartbeats)) {
                CountDownLatch was = latch.getAndSet(null);
                if (was != null) {
                    was.countDown();
                }
            }
        }

        /** Heartbeats wait, without failing, until {@link #heal} (the rest passes). */
        void hangHeartbeats() {
            hungHeartbeats.set(new CountDownLatch(1));
        }

        /** Since when the heartbeat that waits was sent; zero when none waits. */
        Duration heartbeatHungFor() {
            long since = heartbeatHungSince;
            return since == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - since);
        }

        void hang() {
            hung.set(new CountDownLatch(1));
        }

        void refuseLease() {
            noLease = true;
        }

        /** {@link #current} waits, without failing, until {@link #releaseCurrent} (the rest passes). */
        void holdCurrent() {
            heldCurrent.set(new CountDownLatch(1));
        }

        void releaseCurrent() {
            CountDownLatch was = heldCurrent.getAndSet(null);
            if (was != null) {
                was.countDown();
            }
        }

        private static void await(CountDownLatch wait) {
            if (wait != null) {
                try {
                    wait.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted in a call held by the test", e);
                }
            }
        }

        private void check() {
            await(hung.get());
            if (cut) {
                throw new IllegalStateException("connection cut by the test");
            }
        }

        @Override
        public Optional<Lease> acquire(String node, Duration duration) {
            check();
            return noLease ? Optional.empty() : lease.acquire(node, duration);
        }

        @Override
        public Optional<Lease> renew(Lease held, Duration duration) {
            check();
            return noLease ? Optional.empty() : lease.renew(held, duration);
        }

        @Override
        public void release(Lease held) {
            check();
            lease.release(held);
        }

        @Override
        public LeaderInfo current() {
            check();
            await(heldCurrent.get());
            return lease.current();
        }

        @Override
        public void register(NodeInfo node, Duration staleAfter) {
            check();
            registry.register(node, staleAfter);
        }

        @Override
        public boolean heartbeat(String nodeId, String incarnation, int capacityFree) {
            check();
            CountDownLatch wait = hungHeartbeats.get();
            if (wait != null) {
                heartbeatHungSince = System.nanoTime();
                await(wait);
                heartbeatHungSince = 0;
            }
            return registry.heartbeat(nodeId, incarnation, capacityFree);
        }

        @Override
        public List<NodeStatus> nodes() {
            check();
            return registry.nodes();
        }

        @Override
        public boolean remove(String nodeId, String incarnation) {
            check();
            return registry.remove(nodeId, incarnation);
        }
    }
}
