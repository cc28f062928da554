package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxLock;
import io.ax.test.net.FaultProxy;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Locks on the machine's Redis: one holder at a time, renewed past their ttl, tokens that never cross. */
class RedisLocksTest {

    private static final Duration TTL = Duration.ofMillis(800);
    private static final Duration RENEW = Duration.ofMillis(200);

    private LettuceConnectionFactory factory;
    private String prefix;
    private RedisLink link;
    private RedisLocks locks;
    private StringRedisTemplate redis;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeEach
    void connect() {
        factory = TestRedis.shared();
        prefix = TestRedis.randomPrefix("redis");
        link = new RedisLink(factory, prefix, Duration.ofMillis(200), InstantSource.system());
        locks = new RedisLocks(link, TTL, RENEW, System::nanoTime);
        redis = new StringRedisTemplate(factory);
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        locks.close();
        link.close();
        TestRedis.deleteKeys(factory, prefix);
        factory.destroy();
    }

    @Test
    void oneOfManyThreadsGetsTheLock() throws Exception {
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Optional<AxLock>>> tries = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                tries.add(pool.submit(() -> {
                    go.await();
                    return locks.tryAcquire("report");
                }));
            }
            go.countDown();
            List<AxLock> held = new ArrayList<>();
            for (Future<Optional<AxLock>> f : tries) {
                f.get(10, TimeUnit.SECONDS).ifPresent(held::add);
            }
            assertThat(held).hasSize(1);
            assertThat(redis.opsForValue().get(prefix + "lock:report"))
                    .isEqualTo(held.get(0).token());
            held.get(0).close();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void renewalKeepsALockLongPastItsTtl() {
        AxLock lock = locks.tryAcquire("long-handler").orElseThrow();
        try {
            // three leases long, the token stays in Redis and the holder keeps it
            await().during(TTL.multipliedBy(3))
                    .atMost(TTL.multipliedBy(5))
                    .until(() -> lock.token().equals(redis.opsForValue().get(prefix + "lock:long-handler"))
                            && !lock.isLost());
            assertThat(locks.tryAcquire("long-handler")).isEmpty();
            assertThat(redis.getExpire(prefix + "lock:long-handler", TimeUnit.MILLISECONDS))
                    .as("the key has a ttl")
                    .isPositive()
                    .isLessThanOrEqualTo(TTL.toMillis());
        } finally {
            lock.close();
        }
    }

    @Test
    void aReleasedLockGoesToTheNextCaller() {
        AxLock first = locks.tryAcquire("nightly").orElseThrow();
        assertThat(locks.tryAcquire("nightly")).isEmpty();
        first.close();
        assertThat(redis.hasKey(prefix + "lock:nightly")).isFalse();
        AxLock second = locks.tryAcquire("nightly").orElseThrow();
        assertThat(second.token()).isNotEqualTo(first.token());
        second.close();
    }

    @Test
    void aHolderWhoseTokenWasReplacedIsToldAndNeverDeletesTheOthersLock() {
        AtomicInteger told = new AtomicInteger();
        AxLock lock = locks.tryAcquire("invoices", told::incrementAndGet).orElseThrow();
        // its lease ran out and another holder took the lock meanwhile
        redis.opsForValue().set(prefix + "lock:invoices", "someone-else", Duration.ofSeconds(30));

        await().atMost(TTL.multipliedBy(2)).until(lock::isLost);
        assertThat(told).hasValue(1);
        lock.close();
        assertThat(redis.opsForValue().get(prefix + "lock:invoices"))
                .as("the other holder's lock stays")
                .isEqualTo("someone-else");
    }

    @Test
    void aClosedLockDoesNotDeleteTheLockOfItsSuccessor() {
        AxLock lock = locks.tryAcquire("export").orElseThrow();
        lock.close();
        AxLock successor = locks.tryAcquire("export").orElseThrow();
        lock.close(); // a second close of the old holder
        assertThat(redis.opsForValue().get(prefix + "lock:export")).isEqualTo(successor.token());
        successor.close();
    }

    @Test
    void aStalledHolderLosesItsLockToASecondHolderAndIsTold() throws Exception {
        // the holder talks to Redis through a proxy; its commands wait longer than its lease
        FaultProxy proxy = FaultProxy.start(TestRedis.host(), TestRedis.port());
        toClose.add(proxy);
        LettuceConnectionFactory slow = new LettuceConnectionFactory(
                new org.springframework.data.redis.connection.RedisStandaloneConfiguration("127.0.0.1", proxy.port()),
                org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.builder()
                        .commandTimeout(Duration.ofSeconds(30))
                        .build());
        slow.afterPropertiesSet();
        slow.start();
        toClose.add(slow::destroy);
        RedisLink stalledLink = new RedisLink(slow, prefix, Duration.ofSeconds(1), InstantSource.system());
        toClose.add(stalledLink);
        RedisLocks stalledLocks = new RedisLocks(stalledLink, TTL, RENEW, System::nanoTime);
        toClose.add(stalledLocks);
        CountDownLatch told = new CountDownLatch(1);
        AxLock stalled = stalledLocks.tryAcquire("ledger", told::countDown).orElseThrow();

        proxy.blackhole(); // its renewals hang
        long stalledAt = System.nanoTime();
        assertThat(told.await(TTL.multipliedBy(3).toMillis(), TimeUnit.MILLISECONDS))
                .as("told of the loss")
                .isTrue();
        assertThat(System.nanoTime() - stalledAt)
                .as("told about when its lease ends (on a busy machine, a little later)")
                .isLessThan(TTL.multipliedBy(2).toNanos());
        assertThat(stalled.isLost()).isTrue();

        AxLock taken = await().atMost(TTL.multipliedBy(3))
                .until(() -> locks.tryAcquire("ledger"), Optional::isPresent)
                .orElseThrow();
        proxy.pass(); // the stalled holder's late commands arrive now
        stalled.close();
        await().during(RENEW.multipliedBy(2))
                .atMost(RENEW.multipliedBy(4))
                .until(() -> taken.token().equals(redis.opsForValue().get(prefix + "lock:ledger")));
        assertThat(taken.isLost()).isFalse();
        taken.close();
    }
}
