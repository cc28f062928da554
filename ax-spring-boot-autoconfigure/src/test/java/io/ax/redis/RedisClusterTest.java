package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxLock;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.WakeUps;
import io.ax.core.store.NewFire;
import io.ax.core.store.Permits.Held;
import io.ax.core.store.Permits.Limit;
import io.ax.core.store.Permits.Outcome;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.redis.RedisClusterSet;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * AX on a real Redis Cluster of three primaries: the permits' scripts, whose keys share one hash tag, run without
 * CROSSSLOT; idempotency keys and locks spread over the shards; wake-ups published through one node reach a listener
 * on another.
 */
class RedisClusterTest {

    private static final String TABLES = "axrcl_";
    private static final Duration TTL = Duration.ofSeconds(1);
    private static final Limit LIMIT = new Limit("task:export", 2);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static RedisClusterSet cluster;

    private final String prefix = TestRedis.randomPrefix("cluster");
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeAll
    static void startCluster() {
        cluster = RedisClusterSet.start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private LettuceConnectionFactory factory() {
        LettuceConnectionFactory factory = cluster.factory();
        toClose.add(factory::destroy);
        return factory;
    }

    private RedisLink link(LettuceConnectionFactory factory) {
        RedisLink link = new RedisLink(factory, prefix, Duration.ofMillis(200), InstantSource.system());
        toClose.add(link);
        return link;
    }

    @Test
    void permitsKeepTheirLimitAndAreListed() {
        TestDatabase.H2.migrate(TABLES);
        JdbcInstanceStore store = new JdbcInstanceStore(TestDatabase.H2.dataSource(), TABLES);
        RedisPermits permits = new RedisPermits(
                link(factory()), store, store.permits().orElseThrow()::noteWait, Duration.ZERO, () -> 0);
        toClose.add(permits);
        String a = due(store);
        String b = due(store);
        String c = due(store);

        assertThat(permits.claim(claim(a), List.of(LIMIT), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(b), List.of(LIMIT), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(c), List.of(LIMIT), false)).isEqualTo(Outcome.waits(LIMIT, List.of(a, b)));
        assertThat(permits.held(10)).extracting(Held::instanceId).containsExactlyInAnyOrder(a, b);

        assertThat(store.transition(
                        new Transition(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1, "n1", T0, "done")))
                .isTrue();
        permits.release(a, 1);
        assertThat(permits.claim(claim(c), List.of(LIMIT), false)).isEqualTo(Outcome.CLAIMED);
    }

    @Test
    void idempotencyKeysOnEveryShardAreClaimedOnce() {
        RedisIdempotency idempotency = new RedisIdempotency(link(factory()), (key, ttl) -> {
            throw new AssertionError("a Redis without replicas decides alone; the database was asked for " + key);
        });
        List<String> keys = IntStream.range(0, 30).mapToObj(i -> "refund:" + i).toList();

        assertThat(keys).allMatch(k -> idempotency.claim(k, Duration.ofMinutes(1)));
        assertThat(keys).noneMatch(k -> idempotency.claim(k, Duration.ofMinutes(1)));
        assertThat(shardsHolding(keys.stream().map(k -> prefix + "idem:" + k).toList()))
                .as("the keys spread over the shards")
                .isGreaterThan(1);
    }

    @Test
    void locksOnEveryShardHaveOneHolderAndAreRenewed() {
        RedisLink link = link(factory());
        RedisLocks locks = new RedisLocks(link, TTL, Duration.ofMillis(250), System::nanoTime);
        toClose.add(locks);
        List<String> names = IntStream.range(0, 12).mapToObj(i -> "ledger-" + i).toList();
        List<AxLock> held = new ArrayList<>();
        for (String name : names) {
            // a fresh cluster: each shard's primary is used a ttl after it started
            held.add(await().atMost(TTL.multipliedBy(4))
                    .until(() -> locks.tryAcquire(name), Optional::isPresent)
                    .orElseThrow());
        }
        held.forEach(toClose::add);
        assertThat(shardsHolding(names.stream().map(n -> prefix + "lock:" + n).toList()))
                .isGreaterThan(1);

        await().during(TTL.multipliedBy(2))
                .atMost(TTL.multipliedBy(3))
                .until(() -> held.stream().noneMatch(AxLock::isLost));
        assertThat(names).allMatch(n -> locks.tryAcquire(n).isEmpty());
        held.get(0).close();
        assertThat(locks.tryAcquire(names.get(0))).isPresent();
    }

    @Test
    void wakeUpsPublishedThroughOneNodeReachAListenerOnAnother() {
        RedisWakeUps listener = new RedisWakeUps(link(factory()), factory(), WakeUps.none());
        toClose.add(listener::close);
        RedisWakeUps sender = new RedisWakeUps(link(factory()), factory(), WakeUps.none());
        toClose.add(sender::close);
        Set<String> heard = ConcurrentHashMap.newKeySet();
        listener.listen(heard::add);
        await().atMost(Duration.ofSeconds(10)).until(listener::isListening);

        await().atMost(Duration.ofSeconds(10)).until(() -> {
            sender.signal(List.of("partition:7"));
            return heard.contains("partition:7");
        });
    }

    /** On how many primaries {@code keys} are. */
    private long shardsHolding(List<String> keys) {
        return cluster.ports().stream()
                .filter(port -> {
                    LettuceConnectionFactory node = TestRedis.factory("127.0.0.1", port);
                    try {
                        StringRedisTemplate redis = new StringRedisTemplate(node);
                        return keys.stream().anyMatch(k -> existsHere(redis, k));
                    } finally {
                        node.destroy();
                    }
                })
                .count();
    }

    private static boolean existsHere(StringRedisTemplate node, String key) {
        try {
            return Boolean.TRUE.equals(node.hasKey(key));
        } catch (RuntimeException movedToAnotherShard) {
            return false;
        }
    }

    private static String due(JdbcInstanceStore store) {
        TaskInstance in = new TaskInstance(
                UUID.randomUUID().toString(),
                "export",
                T0,
                InstanceState.SCHEDULED,
                0,
                "n1",
                T0,
                InstanceOrigin.ON_DEMAND,
                null);
        assertThat(store.schedule(List.of(new NewFire(in, "")))).containsExactly(true);
        return in.id();
    }

    private static Transition claim(String id) {
        return new Transition(id, InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T0, "claimed");
    }
}
