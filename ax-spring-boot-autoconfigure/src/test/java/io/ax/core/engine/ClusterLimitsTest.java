package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.InstanceState;
import io.ax.core.InvalidScheduleException;
import io.ax.core.InvalidTaskException;
import io.ax.core.Rate;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskLimits;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.redis.AxRedis;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Cluster-wide limits on two nodes in one process, sharing one store: a task's {@code maxConcurrent}, a group's
 * {@code cluster-limit} and a mutex hold across both nodes, judged by the handlers' own count of who runs at once;
 * whatever waited ran in the end, once, and its wait is in its audit trail.
 */
class ClusterLimitsTest {

    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final ClusterSettings FAST = new ClusterSettings(
            Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMillis(300), Duration.ofMillis(50), 32);
    private static final String PREFIX = "axlimits_";
    /** How long each handler works: long enough that the nodes' attempts overlap, unless a limit keeps them apart. */
    private static final long WORK_MS = 15;

    enum Where {
        IN_MEMORY,
        H2,
        POSTGRESQL,
        MARIADB,
        /** The instances in PostgreSQL, the permits on Redis. */
        POSTGRESQL_REDIS
    }

    /** Limit key -> attempts running now, and the most seen at once. */
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();

    private final Map<String, AtomicInteger> most = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private final List<AxEngine> engines = new ArrayList<>();
    /** Counted down when the test ends: a handler still at work stops waiting. */
    private final java.util.concurrent.CountDownLatch testEnded = new java.util.concurrent.CountDownLatch(1);
    /** When each call started (monotonic nanos). */
    private final List<Long> calls = new java.util.concurrent.CopyOnWriteArrayList<>();

    private static final int RATE = 4;
    private static final Duration RATE_WINDOW = Duration.ofSeconds(1);

    /** The Redis of a test whose permits are on Redis; null otherwise. */
    private AxRedis redis;

    private LettuceConnectionFactory redisFactory;
    private String redisPrefix;

    @AfterEach
    void stop() {
        testEnded.countDown();
        engines.forEach(AxEngine::stop);
        if (redis != null) {
            redis.close();
            TestRedis.deleteKeys(redisFactory, redisPrefix);
            redisFactory.destroy();
        }
    }

    private Supplier<InstanceStore> stores(Where where) {
        if (where == Where.IN_MEMORY) {
            InMemoryInstanceStore shared = new InMemoryInstanceStore();
            return () -> shared;
        }
        if (where == Where.POSTGRESQL_REDIS) {
            redisFactory = TestRedis.shared();
            redisPrefix = TestRedis.randomPrefix("limits");
            redis = new AxRedis(redisFactory, redisPrefix, Duration.ofMillis(200));
        }
        TestDatabase db = TestDatabase.valueOf(where == Where.POSTGRESQL_REDIS ? "POSTGRESQL" : where.name());
        db.migrate(PREFIX);
        db.truncate(PREFIX);
        return () -> new io.ax.jdbc.JdbcInstanceStore(db.dataSource(), PREFIX);
    }

    /** A handler that counts itself in each of {@code keys} while it works. */
    private AxResult work(List<String> keys) throws InterruptedException {
        for (String key : keys) {
            int now = running.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            most.computeIfAbsent(key, k -> new AtomicInteger()).accumulateAndGet(now, Math::max);
            runs.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        }
        try {
            // the work itself, what overlaps unless a limit says otherwise: it lasts until the test ends or WORK_MS
            testEnded.await(WORK_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } finally {
            keys.forEach(key -> running.get(key).decrementAndGet());
        }
        return AxResult.success();
    }

    private static String customerOf(String key) {
        return key.substring(0, key.indexOf(':'));
    }

    private AxEngine node(String id, InstanceStore store) {
        RecordingExecutor executor = new RecordingExecutor()
                .when("export", ctx -> work(List.of("task:export")))
                .when("r1", ctx -> work(List.of("group:reports")))
                .when("r2", ctx -> work(List.of("group:reports")))
                .when("charge", ctx -> work(List.of("mutex:" + customerOf(ctx.key()))))
                .when("refund", ctx -> work(List.of("mutex:" + customerOf(ctx.key()))))
                .when("call", ctx -> {
                    calls.add(System.nanoTime());
                    return AxResult.success();
                });
        AxEngineBuilder builder = AxEngine.builder();
        if (redis != null) {
            builder.permits(redis.permits(
                    store,
                    ((ClusterStore) store).permits().orElseThrow(),
                    FAST.lease().plus(FAST.heartbeat())));
        }
        AxEngine e = builder.store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(id)
                .clusterSettings(FAST)
                .defaultPool(new PoolSettings(8, 1_000))
                .pools(Map.of("reports", new PoolSettings(8, 1_000).clusterLimit(3)))
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        e.register(AxTask.builder("export")
                .target("test.export")
                .concurrent(true)
                .limits(new TaskLimits(2, null))
                .build());
        for (String report : List.of("r1", "r2")) {
            e.register(AxTask.builder(report)
                    .target("test." + report)
                    .group("reports")
                    .concurrent(true)
                    .build());
        }
        for (String money : List.of("charge", "refund")) {
            e.register(AxTask.builder(money)
                    .target("test." + money)
                    .concurrent(true)
                    .limits(new TaskLimits(0, "${keyPrefix}"))
                    .build());
        }
        e.register(AxTask.builder("call")
                .target("test.call")
                .concurrent(true)
                .limits(new TaskLimits(0, null, new Rate(RATE, RATE_WINDOW)))
                .build());
        engines.add(e);
        e.start();
        return e;
    }

    @ParameterizedTest
    @EnumSource(Where.class)
    void limitsHoldAcrossTwoNodesAndEveryWaiterRunsOnce(Where where) {
        Supplier<InstanceStore> stores = stores(where);
        AxEngine n1 = node("n1", stores.get());
        AxEngine n2 = node("n2", stores.get());
        await().atMost(BOUND)
                .until(() -> n1.status().partitions().orElseThrow().owned().size() > 0
                        && n2.status().partitions().orElseThrow().owned().size() > 0);

        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            requests.add(ScheduleRequest.of("export").after(Duration.ZERO));
        }
        for (int i = 0; i < 30; i++) {
            requests.add(ScheduleRequest.of(i % 2 == 0 ? "r1" : "r2").after(Duration.ZERO));
        }
        for (int i = 0; i < 30; i++) {
            String customer = "customer-" + (i % 3);
            // the mutex is the key up to its ':', so a charge and a refund of one customer share it
            requests.add(ScheduleRequest.of(i % 2 == 0 ? "charge" : "refund")
                    .after(Duration.ZERO)
                    .key(customer + ":" + i));
        }
        List<String> ids = new ArrayList<>(n1.scheduleAll(requests.subList(0, 45)));
        ids.addAll(n2.scheduleAll(requests.subList(45, requests.size())));

        await().atMost(BOUND)
                .until(() -> ids.stream()
                        .allMatch(id -> n1.find(id).orElseThrow().instance().state() == InstanceState.SUCCESS));

        assertThat(most.get("task:export").get()).as("exports at once").isBetween(1, 2);
        assertThat(most.get("group:reports").get()).as("reports at once").isBetween(1, 3);
        for (int c = 0; c < 3; c++) {
            assertThat(most.get("mutex:customer-" + c).get())
                    .as("attempts of customer-" + c + " at once")
                    .isEqualTo(1);
            assertThat(runs.get("mutex:customer-" + c).get()).isEqualTo(10);
        }
        assertThat(runs.get("task:export").get()).as("each export ran once").isEqualTo(30);
        assertThat(runs.get("group:reports").get()).as("each report ran once").isEqualTo(30);

        // 30 exports due at once against 2 permits: some waited, and said so
        List<AuditEntry> waits = ids.subList(0, 30).stream()
                .flatMap(id -> n1.find(id).orElseThrow().auditTrail().stream())
                .filter(a -> a.from() == InstanceState.SCHEDULED && a.to() == InstanceState.SCHEDULED)
                .toList();
        assertThat(waits).isNotEmpty();
        assertThat(waits.get(0).reason()).contains("task:export");
        for (String id : ids) {
            List<AuditEntry> trail = n1.find(id).orElseThrow().auditTrail();
            assertThat(trail.stream().filter(a -> a.to() == InstanceState.RUNNING))
                    .as("attempts of " + id)
                    .hasSize(1);
            assertThat(trail.stream().filter(a -> InstanceState.isNote(a.from(), a.to())))
                    .as("waits recorded for " + id + ": one per wait, not one per try")
                    .hasSizeLessThanOrEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(Where.class)
    void aRateLetsNoMoreStartsThroughAWindowOnTwoNodesAndDropsNone(Where where) {
        Supplier<InstanceStore> stores = stores(where);
        AxEngine n1 = node("n1", stores.get());
        AxEngine n2 = node("n2", stores.get());
        int count = 3 * RATE;
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requests.add(ScheduleRequest.of("call").after(Duration.ZERO));
        }
        List<String> ids = new ArrayList<>(n1.scheduleAll(requests.subList(0, count / 2)));
        ids.addAll(n2.scheduleAll(requests.subList(count / 2, count)));

        await().atMost(BOUND)
                .until(() -> ids.stream()
                        .allMatch(id -> n1.find(id).orElseThrow().instance().state() == InstanceState.SUCCESS));
        assertThat(calls).as("each call ran once").hasSize(count);
        // the rate is judged on the store's clock when the claim commits; the handler starts a little later, by a
        // few milliseconds that differ from one start to the next, so the window is read with that much room
        List<Long> starts = calls.stream().sorted().toList();
        long room = Duration.ofMillis(150).toNanos();
        for (int i = 0; i + RATE < starts.size(); i++) {
            assertThat(starts.get(i + RATE) - starts.get(i))
                    .as("starts " + i + " and " + (i + RATE) + " are more than a window apart")
                    .isGreaterThanOrEqualTo(RATE_WINDOW.toNanos() - room);
        }
        assertThat(ids.stream()
                        .flatMap(id -> n1.find(id).orElseThrow().auditTrail().stream())
                        .filter(a -> InstanceState.isNote(a.from(), a.to()))
                        .map(AuditEntry::reason))
                .isNotEmpty()
                .allMatch(reason -> reason.contains("rate:task:call"));
    }

    @Test
    void aLimitedTaskRefusesMemoryInstances() {
        AxEngine e = node("n1", new InMemoryInstanceStore());
        assertThatThrownBy(() -> e.register(AxTask.builder("memo")
                        .target("test.memo")
                        .durability(Durability.MEMORY)
                        .limits(new TaskLimits(1, null))
                        .build()))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("make it PERSISTENT");
        assertThatThrownBy(() -> e.scheduleAll(List.of(
                        ScheduleRequest.of("export").after(Duration.ZERO).durability(Durability.MEMORY))))
                .isInstanceOf(InvalidScheduleException.class)
                .hasMessageContaining("schedule it PERSISTENT");
    }

    @Test
    void aMutexNamingAnUnknownParameterIsRefusedWithTheTask() {
        assertThatThrownBy(() -> AxTask.builder("x")
                        .target("test.x")
                        .limits(new TaskLimits(0, "customer-${customerId}"))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names ${customerId}, which is neither ${key}, ${keyPrefix} nor a parameter");
    }
}
