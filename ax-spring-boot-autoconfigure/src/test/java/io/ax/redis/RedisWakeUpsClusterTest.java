package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.Partitions;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.redis.RedisServerProcess;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Two engines on one H2 database, which has no wake-ups of its own, with a slow poll: runs on demand written on the
 * node that does not own their task's partition start on its owner when Redis pub/sub wakes it; with Redis killed the
 * owner's sweep (every poll interval) still finds them, and after Redis returns the wake-ups carry on. Every instance
 * runs once.
 */
class RedisWakeUpsClusterTest {

    private static final String TABLES = "axred_";
    /** A poll every 6 s, so work that starts sooner was woken. */
    private static final Duration POLL = Duration.ofSeconds(6);

    private static final ClusterSettings SLOW_POLL =
            new ClusterSettings(Duration.ofMillis(500), Duration.ofSeconds(10), Duration.ofSeconds(8), POLL, 32);

    private RedisServerProcess server;
    private final List<LettuceConnectionFactory> factories = new ArrayList<>();
    private final List<AxRedis> redis = new ArrayList<>();
    private final List<AxEngine> engines = new ArrayList<>();
    private final RecordingExecutor executor = new RecordingExecutor();
    private final String prefix = TestRedis.randomPrefix("redis");

    @BeforeEach
    void start() {
        server = RedisServerProcess.startNew();
        TestDatabase.H2.migrate(TABLES);
        executor.when("work", ctx -> AxResult.success());
    }

    @AfterEach
    void stop() {
        engines.forEach(AxEngine::stop);
        redis.forEach(AxRedis::close);
        factories.forEach(LettuceConnectionFactory::destroy);
        server.close();
    }

    private AxEngine node(String id) {
        LettuceConnectionFactory factory = TestRedis.factory("127.0.0.1", server.port());
        factories.add(factory);
        AxRedis onRedis = new AxRedis(factory, prefix, Duration.ofMillis(200));
        redis.add(onRedis);
        AxEngine engine = AxEngine.builder()
                .store(new JdbcInstanceStore(TestDatabase.H2.dataSource(), TABLES))
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(id)
                .clusterSettings(SLOW_POLL)
                .wakeUps(onRedis.wakeUps(WakeUps.none()))
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        engine.register(AxTask.builder("work")
                .target("test.work")
                .timeout(Duration.ofSeconds(20))
                .concurrent(true)
                .build());
        engines.add(engine);
        return engine;
    }

    @Test
    void theOwnerStartsWorkWrittenElsewhereWhenWokenAndItsSweepCoversAnOutage() {
        AxEngine a = node("a");
        AxEngine b = node("b");
        a.start();
        b.start();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> a.status().cluster().liveNodes().size() == 2
                        && b.status().cluster().liveNodes().size() == 2);
        // every partition owned, each node some: the task's partition stays where it is from here on
        int count = a.status().partitions().orElseThrow().count();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> owned(a) > 0 && owned(b) > 0 && owned(a) + owned(b) == count);
        int partition = Partitions.of("work", count);
        AxEngine owner = a.status().partitions().orElseThrow().owned().containsKey(partition) ? a : b;
        AxEngine writer = owner == a ? b : a;
        await().atMost(Duration.ofSeconds(10))
                .until(() -> redis.stream().allMatch(r -> r.status().up()));

        // woken: the owner starts what the other node wrote well before its next sweep
        List<String> woken = trigger(writer, 40);
        await().atMost(POLL.dividedBy(2)).until(() -> finished(woken));
        assertThat(ranOn(owner, woken)).as("the owner ran them").isEqualTo(woken.size());

        // Redis gone: pub/sub is lost, the owner's sweep finds the work
        server.kill();
        List<String> polled = trigger(writer, 40);
        await().atMost(POLL.multipliedBy(3)).until(() -> finished(polled));
        assertThat(ranOn(owner, polled)).isEqualTo(polled.size());

        // Redis back: woken again
        server.start();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> redis.stream().allMatch(r -> r.status().up()));
        // once the subscriptions are back, a batch finishes before any sweep could have found it
        List<String> after = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<String> batch = trigger(writer, 10);
            after.addAll(batch);
            return finishesWithin(batch, POLL.dividedBy(3));
        });
        await().atMost(POLL.multipliedBy(3)).until(() -> finished(after));

        Map<String, Long> runsPerInstance = executor.runsOf("work").stream()
                .collect(Collectors.groupingBy(AxContext::instanceId, Collectors.counting()));
        assertThat(runsPerInstance.values()).as("every instance ran once").allMatch(n -> n == 1);
        assertThat(runsPerInstance.keySet())
                .containsAll(woken)
                .containsAll(polled)
                .containsAll(after);
    }

    private List<String> trigger(AxEngine on, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(on.triggerNow("work"));
        }
        return ids;
    }

    private static int owned(AxEngine node) {
        return node.status().partitions().map(p -> p.owned().size()).orElse(0);
    }

    private boolean finished(List<String> ids) {
        JdbcInstanceStore store = new JdbcInstanceStore(TestDatabase.H2.dataSource(), TABLES);
        return ids.stream()
                .map(id -> store.find(id).map(TaskInstance::state).orElse(null))
                .allMatch(s -> s == InstanceState.SUCCESS);
    }

    private boolean finishesWithin(List<String> ids, Duration bound) {
        try {
            await().atMost(bound).until(() -> finished(ids));
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException notYet) {
            return false;
        }
    }

    private long ranOn(AxEngine node, List<String> ids) {
        Function<AxContext, Boolean> mine =
                c -> c.nodeId().equals(node.status().cluster().nodeId());
        return executor.runsOf("work").stream()
                .filter(c -> ids.contains(c.instanceId()))
                .filter(mine::apply)
                .count();
    }
}
