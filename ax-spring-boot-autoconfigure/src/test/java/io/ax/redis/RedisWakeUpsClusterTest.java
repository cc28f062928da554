package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.ownership.Ownership;
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
 * Two engines on one H2 database, which has no wake-ups of its own, with a slow poll: Redis pub/sub wakes the
 * follower for its assignments; with Redis killed the poll still finds them, and after Redis returns the wake-ups
 * carry on. Every instance runs once.
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
                .ownership(Ownership.LEADER) // wakes a node for the assignments the leader made it
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
    void theFollowerStartsItsAssignmentsWhenWokenAndThePollCoversAnOutage() {
        AxEngine a = node("a");
        AxEngine b = node("b");
        a.start();
        b.start();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> a.cluster().liveNodes().size() == 2
                        && b.cluster().liveNodes().size() == 2);
        AxEngine leader = a.cluster().isLeader() ? a : b;
        AxEngine follower = leader == a ? b : a;
        await().atMost(Duration.ofSeconds(10))
                .until(() -> redis.stream().allMatch(r -> r.status().up()));

        // woken: the follower's share starts well before its next poll
        List<String> woken = trigger(leader, 40);
        await().atMost(POLL.dividedBy(2)).until(() -> finished(woken));
        assertThat(ranOn(follower, woken)).as("the follower ran its share").isPositive();

        // Redis gone: pub/sub is lost, the poll finds the work
        server.kill();
        List<String> polled = trigger(leader, 40);
        await().atMost(POLL.multipliedBy(3)).until(() -> finished(polled));
        assertThat(ranOn(follower, polled)).isPositive();

        // Redis back: woken again
        server.start();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> redis.stream().allMatch(r -> r.status().up()));
        // once the subscriptions are back, a batch finishes before any poll could have found it
        List<String> after = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<String> batch = trigger(leader, 10);
            after.addAll(batch);
            return finishesWithin(batch, POLL.dividedBy(3)) && ranOn(follower, batch) > 0;
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

    private List<String> trigger(AxEngine leader, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(leader.triggerNow("work"));
        }
        return ids;
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
                c -> c.nodeId().equals(node.cluster().nodeId());
        return executor.runsOf("work").stream()
                .filter(c -> ids.contains(c.instanceId()))
                .filter(mine::apply)
                .count();
    }
}
