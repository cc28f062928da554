package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxException;
import io.ax.core.AxIdempotency;
import io.ax.core.AxLock;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.NewFire;
import io.ax.core.store.Permits.Limit;
import io.ax.core.store.Permits.Outcome;
import io.ax.core.store.Permits.Result;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.redis.RedisSentinelSet;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Two nodes on a real Sentinel set (a primary, a replica, three sentinels) and one database, across a failover to a
 * replica that missed the last writes: the primary is killed after the replica stopped getting them, and the
 * sentinels promote the replica. On the old primary, node a holds both permits of a limit of two, an idempotency key
 * and a lock, none of which the new primary has. Then: node b starts no attempt beyond the limit (the new primary's
 * replication id starts a new era, whose quarantine lets a put its permits back); the key is not accepted again (the
 * database decided it); the lock goes to b only after a was told it lost it. The figures (kill to Redis used again,
 * the quarantine) are printed for the docs; they are not asserted. And on this replicated Redis, a first idempotency
 * claim that the database cannot decide is refused, and taken back from Redis.
 */
class RedisSentinelFailoverTest {

    private static final String TABLES = "axsnt_";
    private static final Duration DOWN_AFTER = Duration.ofMillis(1_000);
    /** The permits' quarantine: the cluster's lease plus heartbeat in an application. */
    private static final Duration QUARANTINE = Duration.ofSeconds(3);

    private static final Duration TTL = Duration.ofSeconds(2);
    private static final Duration RENEW = Duration.ofMillis(500);
    private static final Limit LIMIT = new Limit("task:export", 2);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private RedisSentinelSet set;
    private JdbcInstanceStore store;
    private final String prefix = TestRedis.randomPrefix("sentinel");
    private final List<AutoCloseable> toClose = new ArrayList<>();

    /** One node's view of Redis. */
    private record Node(
            LettuceConnectionFactory factory,
            RedisLink link,
            RedisPermits permits,
            RedisIdempotency idempotency,
            RedisLocks locks) {}

    @BeforeEach
    void start() {
        set = RedisSentinelSet.start(DOWN_AFTER);
        TestDatabase.H2.migrate(TABLES);
        store = new JdbcInstanceStore(TestDatabase.H2.dataSource(), TABLES);
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        set.close();
    }

    private Node node() {
        LettuceConnectionFactory factory = set.factory();
        toClose.add(factory::destroy);
        RedisLink link = new RedisLink(factory, prefix, Duration.ofMillis(200), InstantSource.system());
        toClose.add(link);
        RedisPermits permits =
                new RedisPermits(link, store, store.permits().orElseThrow()::noteWait, QUARANTINE, () -> 0);
        toClose.add(permits);
        RedisLocks locks = new RedisLocks(link, TTL, RENEW, System::nanoTime);
        toClose.add(locks);
        return new Node(
                factory,
                link,
                permits,
                new RedisIdempotency(link, store.idempotency().orElseThrow()),
                locks);
    }

    @Test
    void aFailoverToAReplicaThatMissedTheLastWritesRunsNothingBeyondALimitAcceptsNoKeyTwiceAndTellsTheHolderFirst() {
        Node a = node();
        Node b = node();
        // a fresh Redis: the permits' first era and the locks' first ttl pass
        String warm = due();
        await().atMost(QUARANTINE.multipliedBy(3))
                .until(() -> a.permits().claim(claim(warm), List.of(LIMIT), false) == Outcome.CLAIMED);
        end(a, warm);
        for (Node n : List.of(a, b)) {
            await().atMost(TTL.multipliedBy(3))
                    .until(() -> n.locks().tryAcquire("warm-up"), Optional::isPresent)
                    .orElseThrow()
                    .close();
        }
        set.awaitReplicated();

        set.detachReplica(); // from here on the replica misses every write
        String first = due();
        String second = due();
        assertThat(a.permits().claim(claim(first), List.of(LIMIT), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(a.permits().claim(claim(second), List.of(LIMIT), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(a.idempotency().claim("refund:42", Duration.ofMinutes(10))).isTrue();
        AtomicLong toldAt = new AtomicLong();
        AxLock held = a.locks()
                .tryAcquire("ledger", () -> toldAt.compareAndSet(0, System.nanoTime()))
                .orElseThrow();
        toClose.add(held);
        String third = due();
        assertThat(b.permits().claim(claim(third), List.of(LIMIT), false).result())
                .isEqualTo(Result.WAITS);

        set.killPrimary();
        long killed = System.nanoTime();
        set.resumeReplica();

        List<String> beyondTheLimit = new ArrayList<>();
        List<String> acceptedAgain = new ArrayList<>();
        long[] redisAgain = {0};
        long[] claimsAgain = {0};
        long[] secondHolder = {0};
        AxLock[] taken = {null};
        await().atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    if (claimsAgain[0] == 0) {
                        Outcome o = b.permits().claim(claim(third), List.of(LIMIT), false);
                        if (o == Outcome.CLAIMED) {
                            beyondTheLimit.add(third);
                            claimsAgain[0] = System.nanoTime();
                        } else if (o.reason().contains("afresh") && redisAgain[0] == 0) {
                            redisAgain[0] = System.nanoTime(); // the promoted replica answers, in a new era
                        } else if (o.equals(Outcome.waits(LIMIT, List.of(first, second)))) {
                            claimsAgain[0] = System.nanoTime(); // the quarantine is over, and a put its permits back
                            if (redisAgain[0] == 0) {
                                redisAgain[0] = claimsAgain[0];
                            }
                        }
                    }
                    try {
                        if (b.idempotency().claim("refund:42", Duration.ofMinutes(10))) {
                            acceptedAgain.add("refund:42");
                        }
                    } catch (RuntimeException refused) {
                        // the database did not answer: refused, to be tried again; never accepted
                    }
                    if (taken[0] == null) {
                        taken[0] = b.locks().tryAcquire("ledger").orElse(null);
                        if (taken[0] != null) {
                            secondHolder[0] = System.nanoTime();
                            toClose.add(taken[0]);
                        }
                    }
                    return claimsAgain[0] != 0 && taken[0] != null;
                });

        assertThat(beyondTheLimit)
                .as("attempts started beyond the limit of two")
                .isEmpty();
        assertThat(acceptedAgain).as("keys accepted a second time").isEmpty();
        assertThat(toldAt.get()).as("the first holder was told").isNotZero();
        assertThat(toldAt.get() - secondHolder[0])
                .as("the first holder was told before the second got the lock")
                .isNegative();
        assertThat(held.isLost()).isTrue();

        // the limit goes on as before: one permit back, one more attempt
        end(a, first);
        assertThat(b.permits().claim(claim(third), List.of(LIMIT), false)).isEqualTo(Outcome.CLAIMED);
        String fourth = due();
        assertThat(b.permits().claim(claim(fourth), List.of(LIMIT), false).holders())
                .containsExactlyInAnyOrder(second, third);

        System.out.printf(
                "Sentinel failover (down-after-milliseconds %d): Redis used again %d ms after the kill; limited"
                        + " claims again %d ms after it (quarantine %d ms); lock holder told at %d ms, second holder"
                        + " at %d ms%n",
                DOWN_AFTER.toMillis(),
                ms(redisAgain[0] - killed),
                ms(claimsAgain[0] - killed),
                QUARANTINE.toMillis(),
                ms(toldAt.get() - killed),
                ms(secondHolder[0] - killed));
    }

    @Test
    void aFirstClaimThatTheDatabaseCannotDecideIsRefusedAndTakenBackFromRedis() {
        Node a = node();
        AtomicBoolean databaseDown = new AtomicBoolean(true);
        AxIdempotency database = store.idempotency().orElseThrow();
        RedisIdempotency keys = new RedisIdempotency(a.link(), (key, ttl) -> {
            if (databaseDown.get()) {
                throw new AxException("the database does not answer");
            }
            return database.claim(key, ttl);
        });
        Duration ttl = Duration.ofMinutes(10);
        StringRedisTemplate redis = new StringRedisTemplate(a.factory());

        assertThatThrownBy(() -> keys.claim("refund:7", ttl))
                .isInstanceOf(AxException.class)
                .hasMessageContaining("does not answer");
        assertThat(redis.hasKey(prefix + "idem:refund:7"))
                .as("taken back: a retry is not refused by Redis")
                .isFalse();

        databaseDown.set(false);
        assertThat(keys.claim("refund:7", ttl)).isTrue();
        assertThat(keys.claim("refund:7", ttl)).isFalse();
        assertThat(database.claim("refund:7", ttl)).as("the database has it").isFalse();
    }

    private static long ms(long nanos) {
        return Duration.ofNanos(nanos).toMillis();
    }

    /** The attempt of {@code id} over and its permits given back, as its node does when it ends. */
    private void end(Node on, String id) {
        assertThat(store.transition(
                        new Transition(id, InstanceState.RUNNING, InstanceState.SUCCESS, 1, "n1", T0, "done")))
                .isTrue();
        on.permits().release(id, 1);
    }

    private String due() {
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
