package io.ax.test.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.cluster.LeaderInfo;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link LeaderLease} must have. A store's test extends this class and supplies a fresh lease
 * that no node has taken yet ({@link #newLease()}). Time is the store's: a store on a real clock lets it pass by
 * itself, a store on a fake clock moves it in {@link #advanceStoreClock}; either way the suite waits for what the
 * store reports, with a bound, and never sleeps.
 */
public abstract class LeaderLeaseContract {

    /** Longer than any test runs: such a lease never expires by itself here. */
    protected static final Duration LONG = Duration.ofMinutes(5);
    /** Short enough to wait out, long enough for a few statements on a loaded database. */
    protected static final Duration SHORT = Duration.ofMillis(300);
    /** How long a wait for the store may take beyond the time it waits out. */
    private static final Duration BOUND = Duration.ofSeconds(10);

    protected LeaderLease lease;

    /** A store on which no node has taken the lease: no holder, epoch 0. */
    protected abstract LeaderLease newLease();

    /** Moves the store's clock forward. Stores on a real clock do nothing: their time passes by itself. */
    protected void advanceStoreClock(Duration duration) {}

    /**
     * The same store as a node whose own idea of time is far off would use it. The default is the store itself, for
     * stores that have no node-side time to skew.
     */
    protected LeaderLease sameStoreSeenFromASkewedNode() {
        return lease;
    }

    /** The caller's monotonic clock in nanoseconds: a holder counts its lease down on it from before its call. */
    protected long callerNanos() {
        return System.nanoTime();
    }

    @BeforeEach
    void freshLease() {
        lease = newLease();
    }

    @Test
    void noOneHoldsAFreshLease() {
        LeaderInfo info = lease.current();
        assertThat(info.holder()).isNull();
        assertThat(info.epoch()).isZero();
        assertThat(info.held()).isFalse();
        assertThat(info.remaining()).isLessThanOrEqualTo(Duration.ZERO);
    }

    @Test
    void theFirstNodeToAcquireHoldsTheLeaseAtEpochOne() {
        Lease a = lease.acquire("a", LONG).orElseThrow();
        assertThat(a.holder()).isEqualTo("a");
        assertThat(a.epoch()).isEqualTo(1);
        assertThat(a.remaining()).isPositive().isLessThanOrEqualTo(LONG);
        LeaderInfo info = lease.current();
        assertThat(info.holder()).isEqualTo("a");
        assertThat(info.epoch()).isEqualTo(1);
        assertThat(info.held()).isTrue();
        assertThat(info.remaining()).isPositive().isLessThanOrEqualTo(a.remaining());
        assertThat(info.expiresAt().minus(info.remaining()))
                .as("the store's now, as current() reports it")
                .isNotNull();
    }

    @Test
    void aLeaseHeldByOneNodeIsNotAcquirableByAnotherWhileUnexpired() {
        Lease a = lease.acquire("a", LONG).orElseThrow();
        assertThat(lease.acquire("b", LONG)).isEmpty();
        assertThat(lease.acquire("b", SHORT)).isEmpty();
        assertThat(lease.current())
                .extracting(LeaderInfo::holder, LeaderInfo::epoch, LeaderInfo::held)
                .containsExactly("a", a.epoch(), true);
    }

    @Test
    void acquiringAnUnexpiredLeaseAgainExtendsItAtTheSameEpoch() {
        Lease first = lease.acquire("a", SHORT).orElseThrow();
        Lease again = lease.acquire("a", LONG).orElseThrow();
        assertThat(again.epoch()).isEqualTo(first.epoch());
        assertThat(again.remaining()).isGreaterThan(SHORT);
    }

    @Test
    void renewalKeepsTheEpochAndExtendsTheLease() {
        Lease a = lease.acquire("a", SHORT).orElseThrow();
        Lease renewed = lease.renew(a, LONG).orElseThrow();
        assertThat(renewed.holder()).isEqualTo("a");
        assertThat(renewed.epoch()).isEqualTo(a.epoch());
        assertThat(renewed.remaining()).isGreaterThan(SHORT).isLessThanOrEqualTo(LONG);
        assertThat(lease.current().remaining()).isGreaterThan(SHORT);
    }

    @Test
    void theLeaseExpiresOnTheStoreClock() {
        Lease a = lease.acquire("a", SHORT).orElseThrow();
        assertThat(lease.current().held()).isTrue();
        waitOut(a);
        LeaderInfo info = lease.current();
        assertThat(info.held()).isFalse();
        assertThat(info.remaining()).isLessThanOrEqualTo(Duration.ZERO);
        assertThat(info.holder()).as("who last held it").isEqualTo("a");
        assertThat(info.epoch()).isEqualTo(a.epoch());
    }

    @Test
    void aTakeoverAfterExpiryIncrementsTheEpoch() {
        Lease a = lease.acquire("a", SHORT).orElseThrow();
        waitOut(a);
        Lease b = lease.acquire("b", LONG).orElseThrow();
        assertThat(b.epoch()).isEqualTo(a.epoch() + 1);
        assertThat(lease.current())
                .extracting(LeaderInfo::holder, LeaderInfo::epoch)
                .containsExactly("b", b.epoch());
    }

    @Test
    void theHolderThatLetItsLeaseExpireGetsANewEpochWhenItTakesItAgain() {
        Lease first = lease.acquire("a", SHORT).orElseThrow();
        waitOut(first);
        Lease second = lease.acquire("a", LONG).orElseThrow();
        assertThat(second.epoch()).isEqualTo(first.epoch() + 1);
    }

    @Test
    void renewingAnExpiredLeaseFailsEvenWhenNoOneTookItOver() {
        Lease a = lease.acquire("a", SHORT).orElseThrow();
        waitOut(a);
        assertThat(lease.renew(a, LONG)).isEmpty();
        assertThat(lease.current().held()).isFalse();
    }

    @Test
    void renewingALeaseTakenOverFailsAndLeavesTheNewHolder() {
        Lease a = lease.acquire("a", SHORT).orElseThrow();
        waitOut(a);
        Lease b = lease.acquire("b", LONG).orElseThrow();
        assertThat(lease.renew(a, LONG)).isEmpty();
        assertThat(lease.current())
                .extracting(LeaderInfo::holder, LeaderInfo::epoch, LeaderInfo::held)
                .containsExactly("b", b.epoch(), true);
    }

    @Test
    void renewingWithAStaleEpochFailsEvenForTheSameHolder() {
        Lease first = lease.acquire("a", SHORT).orElseThrow();
        waitOut(first);
        Lease second = lease.acquire("a", LONG).orElseThrow();
        assertThat(lease.renew(first, LONG)).isEmpty();
        assertThat(lease.renew(second, LONG)).isPresent();
    }

    @Test
    void releaseLetsAnotherNodeAcquireAtOnceWithTheNextEpoch() {
        Lease a = lease.acquire("a", LONG).orElseThrow();
        lease.release(a);
        assertThat(lease.current().held()).isFalse();
        Lease b = lease.acquire("b", LONG).orElseThrow();
        assertThat(b.epoch()).isEqualTo(a.epoch() + 1);
    }

    @Test
    void releasingALeaseNoLongerHeldChangesNothing() {
        Lease a = lease.acquire("a", LONG).orElseThrow();
        lease.release(a);
        Lease b = lease.acquire("b", LONG).orElseThrow();
        lease.release(a);
        assertThat(lease.current())
                .extracting(LeaderInfo::holder, LeaderInfo::epoch, LeaderInfo::held)
                .containsExactly("b", b.epoch(), true);
        assertThat(lease.renew(a, LONG)).isEmpty();
    }

    @Test
    void currentReportsTheHolderItsEpochAndWhatRemains() {
        lease.acquire("a", LONG).orElseThrow();
        Lease b = lease.acquire("b", LONG).map(l -> l).orElse(null);
        assertThat(b).isNull();
        LeaderInfo info = lease.current();
        assertThat(info.holder()).isEqualTo("a");
        assertThat(info.epoch()).isEqualTo(1);
        assertThat(info.remaining()).isPositive().isLessThanOrEqualTo(LONG);
        assertThat(info.held()).isTrue();
    }

    @Test
    void aNodeWhoseTimeIsSkewedCannotTakeAnUnexpiredLease() {
        Lease a = lease.acquire("a", LONG).orElseThrow();
        LeaderLease skewed = sameStoreSeenFromASkewedNode();
        assertThat(skewed.acquire("b", SHORT)).isEmpty();
        LeaderInfo seen = skewed.current();
        assertThat(seen)
                .extracting(LeaderInfo::holder, LeaderInfo::epoch, LeaderInfo::held)
                .containsExactly("a", a.epoch(), true);
        assertThat(seen.remaining())
                .as("what remains is the store's reckoning, whatever the node's clock says")
                .isPositive()
                .isLessThanOrEqualTo(LONG);
    }

    @Test
    void aNodeWhoseTimeIsSkewedCannotKeepAnExpiredLease() {
        LeaderLease skewed = sameStoreSeenFromASkewedNode();
        Lease b = skewed.acquire("b", SHORT).orElseThrow();
        waitOut(b);
        assertThat(skewed.renew(b, LONG)).isEmpty();
        assertThat(lease.acquire("a", LONG))
                .hasValueSatisfying(a -> assertThat(a.epoch()).isEqualTo(b.epoch() + 1));
    }

    @Test
    void invalidRequestsAreRefused() {
        assertThatThrownBy(() -> lease.acquire("a", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> lease.acquire("a", Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> lease.acquire(null, LONG)).isInstanceOf(NullPointerException.class);
        Lease a = lease.acquire("a", LONG).orElseThrow();
        assertThatThrownBy(() -> lease.renew(a, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThat(lease.current().held()).isTrue();
    }

    /**
     * Nodes take the lease and release it as fast as they can. Between a node's acquire and its release no other
     * node may hold it, and every takeover gets the next epoch.
     */
    @Test
    void oneLeaderAtATimeUnderContention() throws Exception {
        AtomicReference<String> leader = new AtomicReference<>();
        List<String> overlaps = Collections.synchronizedList(new ArrayList<>());
        List<Long> epochs = Collections.synchronizedList(new ArrayList<>());
        onManyNodes(node -> {
            for (int i = 0; i < 50; i++) {
                Optional<Lease> won = lease.acquire(node, LONG);
                if (won.isEmpty()) {
                    continue;
                }
                if (!leader.compareAndSet(null, node)) {
                    overlaps.add(node + " acquired the lease while " + leader.get() + " held it");
                }
                epochs.add(won.get().epoch()); // by the one leader of the moment: in the order they led
                leader.compareAndSet(node, null); // before the release, after which another node may lead at once
                lease.release(won.get());
            }
        });
        assertThat(overlaps).isEmpty();
        assertThat(epochs)
                .as("one epoch per takeover, in order")
                .isNotEmpty()
                .isEqualTo(LongStream.rangeClosed(1, epochs.size()).boxed().toList());
    }

    /**
     * Nodes race for a short lease; each winner then stops renewing, as a crashed leader would. Each epoch has one
     * holder, no node sees the epoch go back, and no node wins while an earlier winner may still believe it leads
     * (counting its lease down on its own clock from before its call).
     */
    @Test
    void takeoversUnderContentionGiveEachEpochOneHolderAndNeverOverlap() throws Exception {
        Duration term = Duration.ofMillis(50);
        long takeovers = 5;
        AtomicLong lastEpoch = new AtomicLong();
        List<Term> terms = Collections.synchronizedList(new ArrayList<>());
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        onManyNodes(node -> {
            long seen = 0;
            for (int i = 0; i < 10_000 && lastEpoch.get() < takeovers; i++) {
                advanceStoreClock(Duration.ofMillis(1));
                long start = callerNanos();
                Optional<Lease> won = lease.acquire(node, term);
                long end = callerNanos();
                long epoch =
                        won.map(Lease::epoch).orElseGet(() -> lease.current().epoch());
                if (epoch < seen) {
                    problems.add(node + " saw the epoch go back from " + seen + " to " + epoch);
                }
                seen = epoch;
                if (won.isPresent()) {
                    lastEpoch.accumulateAndGet(epoch, Math::max);
                    terms.add(new Term(
                            epoch, node, end, start + won.get().remaining().toNanos()));
                    return; // a leader that stops renewing
                }
            }
        });
        assertThat(problems).isEmpty();
        assertThat(lastEpoch.get()).as("takeovers").isGreaterThanOrEqualTo(takeovers);
        Map<Long, Term> byEpoch = new TreeMap<>();
        for (Term t : terms) {
            Term other = byEpoch.putIfAbsent(t.epoch, t);
            assertThat(other).as("another holder at epoch " + t.epoch).isNull();
        }
        Term previous = null;
        for (Term t : byEpoch.values()) {
            if (previous != null) {
                // the store's clock and the caller's may differ by rounding and by rate: 1 ms of a 50 ms lease
                assertThat(t.wonAtNanos)
                        .as(t.node + " won epoch " + t.epoch + " while " + previous.node + " could still lead")
                        .isGreaterThanOrEqualTo(previous.believedUntilNanos - TimeUnit.MILLISECONDS.toNanos(1));
            }
            previous = t;
        }
    }

    /** A win: who, at which epoch, when its call returned, and until when the winner may believe it leads. */
    private record Term(long epoch, String node, long wonAtNanos, long believedUntilNanos) {}

    /** Waits until the store reports the lease expired, moving a fake clock past it first. */
    protected final void waitOut(Lease held) {
        advanceStoreClock(held.remaining());
        await().atMost(held.remaining().plus(BOUND))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> !lease.current().held());
    }

    /** Runs {@code body} on 16 nodes at once, one thread each, named {@code node-0} to {@code node-15}. */
    static void onManyNodes(Consumer<String> body) throws Exception {
        int nodes = 16;
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> running = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                String node = "node-" + n;
                running.add(pool.submit(() -> {
                    start.await();
                    body.accept(node);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : running) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
