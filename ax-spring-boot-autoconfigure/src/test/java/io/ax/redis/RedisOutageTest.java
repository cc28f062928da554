package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxIdempotency;
import io.ax.core.AxLock;
import io.ax.core.clock.TimeReference;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.WakeUps;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.redis.RedisServerProcess;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A private redis-server killed and started again: lock holders are told, the other parts take their database
 * paths within one lease, and everything is back on Redis once it answers again.
 */
class RedisOutageTest {

    private static final Duration TTL = Duration.ofMillis(1_500);
    private static final Duration RENEW = Duration.ofMillis(300);
    private static final Duration RETRY = Duration.ofMillis(200);
    private static final String TABLES = "axred_";

    private RedisServerProcess server;
    private LettuceConnectionFactory factory;
    private RedisLink link;
    private final String prefix = TestRedis.randomPrefix("redis");

    @BeforeEach
    void startRedis() {
        server = RedisServerProcess.startNew();
        factory = TestRedis.factory("127.0.0.1", server.port());
        link = new RedisLink(factory, prefix, RETRY, InstantSource.system());
    }

    @AfterEach
    void stopRedis() {
        link.close();
        factory.destroy();
        server.close();
    }

    @Test
    void aHolderWhoseRedisDiesIsToldAndLocksComeBackWithRedis() throws Exception {
        try (RedisLocks locks = new RedisLocks(link, TTL, RENEW, System::nanoTime)) {
            CountDownLatch told = new CountDownLatch(1);
            // a Redis up for less than a lock's ttl may have lost locks in a restart: none for a ttl
            assertThat(locks.tryAcquire("settlement")).isEmpty();
            AxLock held = await().atMost(TTL.multipliedBy(3))
                    .until(() -> locks.tryAcquire("settlement", told::countDown), Optional::isPresent)
                    .orElseThrow();

            server.kill();
            assertThat(told.await(TTL.toMillis(), TimeUnit.MILLISECONDS))
                    .as("told within one lease")
                    .isTrue();
            assertThat(held.isLost()).isTrue();
            await().atMost(TTL).until(() -> !link.isUp()); // the stuck renewal times out
            assertThat(locks.tryAcquire("settlement"))
                    .as("no lock while Redis is down")
                    .isEmpty();

            server.start();
            long restarted = System.nanoTime();
            await().atMost(Duration.ofSeconds(15)).until(link::isUp);
            AxLock again = await().atMost(TTL.multipliedBy(3))
                    .until(() -> locks.tryAcquire("settlement"), Optional::isPresent)
                    .orElseThrow();
            assertThat(System.nanoTime() - restarted)
                    .as("a restarted Redis gives no lock for a ttl: a holder it forgot is told first")
                    .isGreaterThanOrEqualTo(TTL.toNanos());
            held.close(); // the old holder's late release leaves the new lock alone
            assertThat(new StringRedisTemplate(factory).opsForValue().get(prefix + "lock:settlement"))
                    .isEqualTo(again.token());
            again.close();
        }
    }

    @Test
    void idempotencyKeysDegradeToTheDatabaseAndReturnToRedis() {
        AxIdempotency database = store().idempotency().orElseThrow();
        RedisIdempotency idempotency = new RedisIdempotency(link, database);
        StringRedisTemplate redis = new StringRedisTemplate(factory);

        assertThat(idempotency.claim("before", Duration.ofMinutes(5))).isTrue();
        assertThat(redis.hasKey(prefix + "idem:before")).isTrue();

        server.kill();
        long killed = System.nanoTime();
        assertThat(idempotency.claim("during", Duration.ofMinutes(5))).isTrue();
        assertThat(System.nanoTime() - killed)
                .as("the database answered after at most one Redis command timeout")
                .isLessThan(TestRedis.COMMAND_TIMEOUT.plusSeconds(1).toNanos());
        assertThat(idempotency.claim("during", Duration.ofMinutes(5))).isFalse();
        assertThat(database.claim("during", Duration.ofMinutes(5)))
                .as("the claim is in the database")
                .isFalse();

        server.start();
        await().atMost(Duration.ofSeconds(15)).until(link::isUp);
        assertThat(idempotency.claim("after", Duration.ofMinutes(5))).isTrue();
        assertThat(redis.hasKey(prefix + "idem:after")).as("back on Redis").isTrue();
        assertThat(database.claim("after", Duration.ofMinutes(5)))
                .as("not in the database")
                .isTrue();
    }

    @Test
    void wakeUpsGoThroughTheFallbackWhileRedisIsDownAndBackOverRedisAfter() {
        JdbcInstanceStore pg = postgresStore();
        WakeUps senderFallback = pg.wakeUps();
        WakeUps pgListener = pg.wakeUps();
        RedisWakeUps sender = new RedisWakeUps(link, factory, senderFallback);
        RedisLink receiverLink = new RedisLink(factory, prefix, RETRY, InstantSource.system());
        RedisWakeUps redisListener = new RedisWakeUps(receiverLink, factory, WakeUps.none());
        List<String> overRedis = new CopyOnWriteArrayList<>();
        List<String> overDatabase = new CopyOnWriteArrayList<>();
        try {
            redisListener.listen(overRedis::add);
            pgListener.listen(overDatabase::add);
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        sender.signal(List.of("before"));
                        return overRedis.contains("before");
                    });
            assertThat(overDatabase).doesNotContain("before");

            server.kill();
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        sender.signal(List.of("during"));
                        return overDatabase.contains("during");
                    });

            server.start();
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        sender.signal(List.of("after"));
                        return overRedis.contains("after");
                    });
        } finally {
            sender.close();
            redisListener.close();
            pgListener.close();
            receiverLink.close();
        }
    }

    @Test
    void theClusterClockIsReadFromTheDatabaseWhileRedisIsDown() {
        TimeReference database = store().timeReference().orElseThrow();
        RedisTimeReference clock = new RedisTimeReference(link, database);
        clock.read();
        assertThat(clock.name()).isEqualTo("redis");

        server.kill();
        await().atMost(TTL).until(() -> {
            clock.read();
            return clock.name().equals("database");
        });

        server.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            clock.read();
            return clock.name().equals("redis");
        });
    }

    private static ClusterStore store() {
        TestDatabase.H2.migrate(TABLES);
        return new JdbcInstanceStore(TestDatabase.H2.dataSource(), TABLES);
    }

    private static JdbcInstanceStore postgresStore() {
        TestDatabase.POSTGRESQL.dataSource(); // skips or fails here when PostgreSQL does not answer
        return new JdbcInstanceStore(TestDatabase.POSTGRESQL.dataSource(), TABLES);
    }
}
