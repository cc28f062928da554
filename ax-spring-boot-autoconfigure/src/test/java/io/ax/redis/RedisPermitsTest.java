package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.Permits;
import io.ax.core.store.Permits.Held;
import io.ax.core.store.Permits.Limit;
import io.ax.core.store.Permits.Outcome;
import io.ax.core.store.Permits.Result;
import io.ax.test.net.FaultProxy;
import io.ax.test.redis.TestRedis;
import io.ax.test.store.PermitsContract;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The permits contract with the slots on the machine's Redis and the instances in memory; then what only Redis
 * permits do: wait while Redis does not answer, clear a claim's permit left pending, give an attempt back whose permit
 * was cleared before it was confirmed.
 */
class RedisPermitsTest extends PermitsContract<InMemoryInstanceStore> {

    private static final Limit MUTEX = new Limit("mutex:ledger", 1);

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final AtomicLong skewMicros = new AtomicLong();
    private LettuceConnectionFactory factory;
    private String prefix;
    private RedisLink link;

    @Override
    protected InMemoryInstanceStore newStore() {
        return new InMemoryInstanceStore();
    }

    @Override
    protected Permits permitsOf(InMemoryInstanceStore store) {
        factory = TestRedis.shared();
        prefix = TestRedis.randomPrefix("permits");
        link = new RedisLink(factory, prefix, Duration.ofMillis(200), InstantSource.system());
        return permits(link, store);
    }

    @Override
    protected boolean aReleaseWaitsForTheEndToBeStored() {
        return false;
    }

    /** Redis's clock cannot be moved: the permits see it skewed instead. */
    @Override
    protected void timePasses(Duration time) {
        skewMicros.addAndGet(TimeUnit.MICROSECONDS.convert(time));
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        if (link != null) {
            link.close();
            TestRedis.deleteKeys(factory, prefix);
            factory.destroy();
        }
    }

    @Test
    void whileRedisDoesNotAnswerAClaimWaitsWithTheCauseInItsAuditRowAndWritesNothingElse() throws Exception {
        FaultProxy proxy = FaultProxy.start(TestRedis.host(), TestRedis.port());
        toClose.add(proxy);
        LettuceConnectionFactory proxied = TestRedis.factory("127.0.0.1", proxy.port());
        toClose.add(proxied::destroy);
        RedisLink cut = new RedisLink(proxied, prefix, Duration.ofMillis(100), InstantSource.system());
        toClose.add(cut);
        Permits overProxy = permits(cut, store);
        String a = due();
        String b = due();

        proxy.refuse();
        Outcome first = overProxy.claim(claim(a), List.of(MUTEX), true);
        Outcome next = overProxy.claim(claim(a), List.of(MUTEX), false);

        assertThat(first.result()).isEqualTo(Result.WAITS);
        assertThat(first.reason()).startsWith("waits for a permit of mutex:ledger: Redis, which keeps the permits,");
        assertThat(next.reason())
                .as("known down: not asked again")
                .isEqualTo("waits for a permit of mutex:ledger: Redis, which keeps the permits, does not answer");
        assertThat(store.find(a).orElseThrow().state()).isEqualTo(InstanceState.SCHEDULED);
        assertThat(store.auditTrail(a)).last().extracting(AuditEntry::reason).isEqualTo(first.reason());

        proxy.pass();
        await().atMost(Duration.ofSeconds(10)).until(cut::isUp);
        assertThat(overProxy.claim(claim(a), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(b), List.of(MUTEX), false))
                .as("one set of permits, whichever link claims")
                .isEqualTo(Outcome.waits(MUTEX, List.of(a)));
    }

    @Test
    void aPermitLeftPendingByAClaimThatFailedMidwayIsClearedOnceItsGraceIsOver() {
        String failed = due();
        String b = due();
        String hash = prefix + "{permits}:at-once:" + MUTEX.key();
        // as a claim leaves it whose node died between Redis and the store: pending, its instance not RUNNING
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        long now = redis.execute(c -> c.serverCommands().time(TimeUnit.MICROSECONDS), true);
        redis.opsForHash().put(hash, failed + "|1", "p|t0|0|" + now + "|n2");

        assertThat(permits.claim(claim(b), List.of(MUTEX), false))
                .as("its claim may still be on its way")
                .isEqualTo(Outcome.waits(MUTEX, List.of(failed)));

        timePasses(RedisPermits.PENDING_GRACE.plusSeconds(1));
        assertThat(permits.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10)).extracting(Held::instanceId).containsExactly(b);
    }

    @Test
    void anAttemptWhosePermitWasClearedBeforeItWasConfirmedIsGivenBackUnstarted() {
        String a = due();
        String b = due();
        String hash = prefix + "{permits}:at-once:" + MUTEX.key();
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        // another claim clears a's pending permit while the store applies a's claim, and takes the slot
        Permits racing = permits(link, storeBefore(Transition.class, t -> redis.delete(hash)));

        assertThat(racing.claim(claim(a), List.of(MUTEX), false)).isEqualTo(Outcome.NOT_APPLIED);

        assertThat(store.find(a).orElseThrow().state()).isEqualTo(InstanceState.SCHEDULED);
        assertThat(store.auditTrail(a))
                .extracting(AuditEntry::to)
                .containsExactly(
                        InstanceState.CREATED, InstanceState.SCHEDULED, InstanceState.RUNNING, InstanceState.SCHEDULED);
        assertThat(store.auditTrail(a))
                .last()
                .extracting(AuditEntry::reason)
                .asString()
                .contains("was cleared before it was confirmed", "did not start");
        assertThat(permits.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
    }

    @Test
    void aReleaseOnAnotherNodeOfTheSameAttemptClaimedAgainLeavesItsPermit() {
        String a = due();
        String b = due();
        permits.claim(claim(a), List.of(MUTEX), false);
        move(a, InstanceState.RUNNING, InstanceState.SCHEDULED, 1);
        Permits other = permits(link, store);
        assertThat(other.claim(claim(a), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);

        assertThat(permits.release(a, 1))
                .as("the first claim's, given back unstarted")
                .isZero();
        assertThat(permits.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.waits(MUTEX, List.of(a)));
        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        assertThat(other.release(a, 1)).isZero();
        assertThat(permits.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
    }

    @Test
    void aSecondClaimOfAnAttemptThatTheStoreRefusesLeavesTheFirstClaimsPermit() {
        String a = due();
        String b = due();
        assertThat(permits.claim(claim(a), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);

        // another node takes the attempt for its own (across a move of its partition): the store has it RUNNING
        Outcome second = permits(link, store).claim(claim(a), List.of(MUTEX), false);

        assertThat(second.result()).isNotEqualTo(Result.CLAIMED);
        assertThat(permits.claim(claim(b), List.of(MUTEX), false))
                .as("a still runs: its permit is there")
                .isEqualTo(Outcome.waits(MUTEX, List.of(a)));
    }

    @Test
    void aRateClaimThatTheStoreRefusesLeavesItsMemberToAnotherClaimOfTheAttemptThatStarted() {
        Limit rate = new Limit("rate:task:export", 1, Duration.ofHours(1));
        String a = due();
        String b = due();
        Permits other = permits(link, store);
        List<Outcome> second = new ArrayList<>();
        // while the first claim of a is on its way to the store, a second claim of a finds its member and applies
        Permits first = permits(link, storeBefore(Transition.class, t -> {
            if (second.isEmpty()) {
                second.add(other.claim(claim(a), List.of(rate), false));
            }
        }));

        assertThat(first.claim(claim(a), List.of(rate), false)).isEqualTo(Outcome.NOT_APPLIED);

        assertThat(second).containsExactly(Outcome.CLAIMED);
        assertThat(permits.claim(claim(b), List.of(rate), false))
                .as("the rate's one start of the window went to a")
                .isEqualTo(Outcome.waits(rate, List.of(a)));
    }

    @Test
    void aRatesWindowBeginsWhenItsClaimCommitsNotWhenItsPermitWasTaken() {
        Limit rate = new Limit("rate:task:export", 1, Duration.ofSeconds(1));
        String a = due();
        String b = due();
        // the store takes 600 ms to commit a's claim (a database under a cut, say): a starts then
        Permits slow = permits(link, storeBefore(Transition.class, t -> timePasses(Duration.ofMillis(600))));
        assertThat(slow.claim(claim(a), List.of(rate), false)).isEqualTo(Outcome.CLAIMED);

        timePasses(Duration.ofMillis(500)); // 1.1 s after a's permit was taken, 0.5 s after a started
        assertThat(permits.claim(claim(b), List.of(rate), false))
                .as("a second start 0.5 s after the first")
                .isEqualTo(Outcome.waits(rate, List.of(a)));
        timePasses(Duration.ofMillis(600));
        assertThat(permits.claim(claim(b), List.of(rate), false)).isEqualTo(Outcome.CLAIMED);
    }

    @Test
    void aRedisRestartedEmptyGetsItsPermitsBackFromTheirHoldersWhileEveryClaimWaitsOutTheQuarantine() {
        Duration quarantine = Duration.ofMinutes(1);
        Limit rate = new Limit("rate:task:export", 1, Duration.ofHours(1));
        RedisPermits holder = permits(link, store, quarantine);
        RedisPermits other = permits(link, store, quarantine);
        String a = due();
        String b = due();
        String c = due();
        assertThat(holder.claim(claim(a), List.of(MUTEX, rate), false).reason())
                .as("Redis is new to permits: nobody knows who holds what")
                .contains("Redis keeps the permits afresh");
        timePasses(quarantine);
        assertThat(holder.claim(claim(a), List.of(MUTEX, rate), false)).isEqualTo(Outcome.CLAIMED);

        TestRedis.deleteKeys(factory, prefix); // as a restart without persistence leaves it
        Outcome meanwhile = other.claim(claim(b), List.of(MUTEX), true);

        assertThat(meanwhile.result()).isEqualTo(Result.WAITS);
        assertThat(meanwhile.reason()).contains("Redis keeps the permits afresh", "ms more");
        assertThat(store.auditTrail(b)).last().extracting(AuditEntry::reason).isEqualTo(meanwhile.reason());
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        String hash = prefix + "{permits}:at-once:" + MUTEX.key();
        await().atMost(Duration.ofSeconds(10)).until(() -> redis.opsForHash().hasKey(hash, a + "|1"));
        timePasses(quarantine);
        assertThat(other.claim(claim(b), List.of(MUTEX), false))
                .as("its holder put it back")
                .isEqualTo(Outcome.waits(MUTEX, List.of(a)));
        assertThat(other.claim(claim(c), List.of(rate), false))
                .as("and its rate's, within its window")
                .isEqualTo(Outcome.waits(rate, List.of(a)));
        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        assertThat(holder.release(a, 1)).isZero();
        assertThat(other.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
    }

    /** Permits on {@code link} over {@code instances}, without a quarantine, closed after the test. */
    private RedisPermits permits(RedisLink link, InstanceStore instances) {
        return permits(link, instances, Duration.ZERO);
    }

    private RedisPermits permits(RedisLink link, InstanceStore instances, Duration quarantine) {
        RedisPermits permits =
                new RedisPermits(link, instances, store.permits().orElseThrow()::noteWait, quarantine, skewMicros::get);
        toClose.add(permits);
        return permits;
    }

    /** The store, whose {@code transition} first runs {@code before} on its argument. */
    private <T> InstanceStore storeBefore(Class<T> type, Consumer<T> before) {
        return (InstanceStore) Proxy.newProxyInstance(
                InstanceStore.class.getClassLoader(), new Class<?>[] {InstanceStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("transition") && args.length == 1 && type.isInstance(args[0])) {
                        before.accept(type.cast(args[0]));
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
