package io.ax.test.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.store.Permits;
import io.ax.core.store.Permits.Held;
import io.ax.core.store.Permits.Limit;
import io.ax.core.store.Permits.Outcome;
import io.ax.core.store.Permits.Result;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every store's {@link Permits} promise: at most a limit's permits are held at once, a permit is held exactly
 * while its attempt runs (free once it ended or was taken over, without a release), and a claim takes its permits
 * and its transition together or not at all, also when many race. A rate's permit is held for its window from its
 * claim, whatever its attempt does, so that at most its permits start in any window. Each store's test extends it in
 * a few lines.
 *
 * @param <S> the store, which keeps the instances whose states say which permits are held
 */
public abstract class PermitsContract<S extends InstanceStore & ClusterStore> {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Limit MUTEX = new Limit("mutex:customer-7", 1);
    private static final Limit EXPORT = new Limit("task:export", 2);
    /** Far longer than a test runs: the window passes only when a test lets it ({@link #timePasses}). */
    private static final Duration WINDOW = Duration.ofMinutes(1);

    private static final Limit RATE = new Limit("rate:task:export", 3, WINDOW);

    protected S store;
    protected Permits permits;

    /** A new, empty store that keeps permits. */
    protected abstract S newStore();

    /** The permits under test, over {@code store}'s instances: its own unless the test needs a clock it can move. */
    protected Permits permitsOf(S store) {
        return store.permits().orElseThrow();
    }

    /**
     * Whether {@link Permits#release} keeps the permits of an attempt the store still has RUNNING (its end not stored
     * yet), as the database's do, rather than give them back at once as the release's claim's own, told apart from the
     * same attempt's next claim by a token (Redis).
     */
    protected boolean aReleaseWaitsForTheEndToBeStored() {
        return true;
    }

    /**
     * Lets {@code time} pass on the clock the store measures rates on, for every permit of a rate taken so far. The
     * tests take a real clock's time passing meanwhile to be far less than half a {@link #WINDOW}.
     */
    protected abstract void timePasses(Duration time);

    @BeforeEach
    void freshStore() {
        store = newStore();
        permits = permitsOf(store);
    }

    @Test
    void aLimitOfTwoAdmitsTwoClaimsAndTheThirdWaitsNamingBothHolders() {
        String a = due();
        String b = due();
        String c = due();

        assertThat(permits.claim(claim(a), List.of(EXPORT), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(b), List.of(EXPORT), false)).isEqualTo(Outcome.CLAIMED);
        Outcome third = permits.claim(claim(c), List.of(EXPORT), false);

        assertThat(third.result()).isEqualTo(Result.WAITS);
        assertThat(third.waitsFor()).isEqualTo(EXPORT);
        assertThat(third.holders()).containsExactly(a, b);
        assertThat(state(c)).isEqualTo(InstanceState.SCHEDULED);
        assertThat(trail(c)).as("nothing written").containsExactly(InstanceState.CREATED, InstanceState.SCHEDULED);
        assertThat(permits.held(10))
                .extracting(Held::key, Held::slot, Held::instanceId, Held::attempt, Held::node)
                .containsExactly(tuple(EXPORT.key(), 0, a, 1, "n1"), tuple(EXPORT.key(), 1, b, 1, "n1"));
    }

    @Test
    void aMutexIsHeldByOneAttemptOfEachKey() {
        String a = due();
        String b = due();
        String c = due();
        Limit other = new Limit("mutex:customer-8", 1);

        assertThat(permits.claim(claim(a), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.waits(MUTEX, List.of(a)));
        assertThat(permits.claim(claim(c), List.of(other), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10))
                .extracting(Held::key, Held::instanceId)
                .containsExactly(tuple(MUTEX.key(), a), tuple(other.key(), c));
    }

    @Test
    void aPermitIsFreeOnceItsAttemptEndedWithoutARelease() {
        String a = due();
        String b = due();
        permits.claim(claim(a), List.of(MUTEX), false);

        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);

        assertThat(permits.held(10)).isEmpty();
        assertThat(permits.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10)).extracting(Held::slot, Held::instanceId).containsExactly(tuple(0, b));
    }

    @Test
    void aPermitIsFreeOnceItsAttemptWasTakenOver() {
        String a = due();
        String b = due();
        permits.claim(claim(a), List.of(MUTEX), false);

        // its node is gone: the attempt fails by the takeover, and waits for its retry
        move(a, InstanceState.RUNNING, InstanceState.FAILED, 1);
        move(a, InstanceState.FAILED, InstanceState.RETRYING, 1);

        assertThat(permits.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(retry(a, 2), List.of(MUTEX), false)).isEqualTo(Outcome.waits(MUTEX, List.of(b)));
    }

    @Test
    void anAttemptGivenBackAndClaimedAgainKeepsItsOnePermit() {
        String x = due();
        String a = due();
        String b = due();
        String c = due();
        permits.claim(claim(x), List.of(EXPORT), false);
        permits.claim(claim(a), List.of(EXPORT), false);
        move(x, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        move(a, InstanceState.RUNNING, InstanceState.SCHEDULED, 1); // its node stopped before it started it

        assertThat(permits.claim(claim(a), List.of(EXPORT), false))
                .as("the same attempt again")
                .isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10))
                .as("its own slot, not the lowest free one")
                .extracting(Held::slot, Held::instanceId)
                .containsExactly(tuple(1, a));

        assertThat(permits.claim(claim(b), List.of(EXPORT), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(c), List.of(EXPORT), false)).isEqualTo(Outcome.waits(EXPORT, List.of(b, a)));
    }

    @Test
    void theSlotOfAnAttemptGivenBackIsFreeForAnother() {
        String a = due();
        String b = due();
        permits.claim(claim(a), List.of(MUTEX), false);
        move(a, InstanceState.RUNNING, InstanceState.SCHEDULED, 1);

        assertThat(permits.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(a), List.of(MUTEX), false)).isEqualTo(Outcome.waits(MUTEX, List.of(b)));
    }

    @Test
    void aReleaseGivesBackTheAttemptsPermitsButNotThoseOfItsRunClaimedAgain() {
        String a = due();
        String b = due();
        permits.claim(claim(a), List.of(MUTEX, EXPORT), false);
        move(a, InstanceState.RUNNING, InstanceState.SCHEDULED, 1);
        permits.claim(claim(a), List.of(MUTEX, EXPORT), false);

        permits.release(a, 1); // late, from the node that gave it back
        assertThat(permits.held(10)).extracting(Held::instanceId).containsExactly(a, a);
        assertThat(permits.claim(claim(b), List.of(MUTEX), false).result()).isEqualTo(Result.WAITS);

        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        permits.release(a, 1);
        permits.release(a, 1); // twice: nothing more to give back
        assertThat(permits.held(10)).isEmpty();
        assertThat(permits.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
    }

    @Test
    void aClaimThatDoesNotApplyTakesNoPermit() {
        String cancelled = due();
        String b = due();
        move(cancelled, InstanceState.SCHEDULED, InstanceState.CANCELLED, 0);

        assertThat(permits.claim(claim(cancelled), List.of(EXPORT), false)).isEqualTo(Outcome.NOT_APPLIED);
        assertThat(permits.claim(retry(b, 1), List.of(EXPORT), false))
                .as("it is not RETRYING")
                .isEqualTo(Outcome.NOT_APPLIED);

        assertThat(permits.claim(claim(b), List.of(EXPORT), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10))
                .as("the first slot: no row was left in it")
                .extracting(Held::slot, Held::instanceId)
                .containsExactly(tuple(0, b));
        assertThat(trail(cancelled)).endsWith(InstanceState.CANCELLED);
    }

    @Test
    void aFencedClaimWritesNothing() {
        String a = due();
        String b = due();
        long epoch = store.leaderLease()
                .acquire("n1", Duration.ofMinutes(5))
                .orElseThrow()
                .epoch();

        assertThatThrownBy(() -> permits.claim(claim(a).assignedTo("n1", epoch + 1), List.of(EXPORT), true))
                .isInstanceOf(FencedOutException.class);
        assertThat(state(a)).isEqualTo(InstanceState.SCHEDULED);
        assertThat(trail(a)).containsExactly(InstanceState.CREATED, InstanceState.SCHEDULED);

        assertThat(permits.claim(claim(b).assignedTo("n1", epoch), List.of(EXPORT), false))
                .isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10)).extracting(Held::slot, Held::instanceId).containsExactly(tuple(0, b));
    }

    @Test
    void aClaimTakesThePermitsOfAllItsLimitsOrNone() {
        Limit group = new Limit("group:reports", 2);
        String holder = due();
        String a = due();
        String b = due();
        String c = due();
        permits.claim(claim(holder), List.of(MUTEX), false);

        assertThat(permits.claim(claim(a), List.of(MUTEX, group), false))
                .as("the group's permit is free, the mutex's is not")
                .isEqualTo(Outcome.waits(MUTEX, List.of(holder)));
        assertThat(permits.claim(claim(b), List.of(group), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(c), List.of(group), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10))
                .as("a took none of the group's")
                .extracting(Held::key, Held::slot, Held::instanceId)
                .containsExactly(tuple(group.key(), 0, b), tuple(group.key(), 1, c), tuple(MUTEX.key(), 0, holder));

        move(holder, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        assertThat(permits.claim(claim(a), List.of(MUTEX, group), false))
                .isEqualTo(Outcome.waits(group, List.of(b, c)));
        move(b, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        assertThat(permits.claim(claim(a), List.of(group, MUTEX), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10))
                .extracting(Held::key, Held::instanceId)
                .containsExactly(tuple(group.key(), a), tuple(group.key(), c), tuple(MUTEX.key(), a));
    }

    @Test
    void aWaitAskedToBeAuditedWritesOneRowFromItsStateToTheSame() {
        String holder = due();
        String a = due();
        String retried = due();
        permits.claim(claim(holder), List.of(MUTEX), false);
        assertThat(permits.claim(claim(retried), List.of(), false)).isEqualTo(Outcome.CLAIMED);
        move(retried, InstanceState.RUNNING, InstanceState.FAILED, 1);
        move(retried, InstanceState.FAILED, InstanceState.RETRYING, 1);

        permits.claim(claim(a), List.of(MUTEX), false);
        assertThat(trail(a)).as("not asked").containsExactly(InstanceState.CREATED, InstanceState.SCHEDULED);
        permits.claim(claim(a), List.of(MUTEX), true);
        permits.claim(retry(retried, 2), List.of(MUTEX), true);

        String reason = "waits for a permit of mutex:customer-7 (1 of 1 held by " + holder + ")";
        assertThat(store.auditTrail(a))
                .hasSize(3)
                .last()
                .extracting(AuditEntry::from, AuditEntry::to, AuditEntry::attempt, AuditEntry::node, AuditEntry::reason)
                .containsExactly(InstanceState.SCHEDULED, InstanceState.SCHEDULED, 0, "n1", reason);
        assertThat(store.auditTrail(retried))
                .last()
                .as("at the attempt it has, not the one it waits to start")
                .extracting(AuditEntry::from, AuditEntry::to, AuditEntry::attempt, AuditEntry::reason)
                .containsExactly(InstanceState.RETRYING, InstanceState.RETRYING, 1, reason);
        assertThat(state(a)).isEqualTo(InstanceState.SCHEDULED);
    }

    @Test
    void heldListsOnlyRunningAttemptsUpToItsLimit() {
        Limit three = new Limit("group:batch", 3);
        String a = due();
        String b = due();
        String c = due();
        for (String id : List.of(a, b, c)) {
            permits.claim(claim(id), List.of(three), false);
        }

        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);

        assertThat(permits.held(10)).extracting(Held::instanceId).containsExactly(b, c);
        assertThat(permits.held(1)).extracting(Held::instanceId).containsExactly(b);
        assertThat(permits.held(0)).isEmpty();
    }

    @Test
    void aRateOfThreeAdmitsThreeClaimsInItsWindowWhateverTheirAttemptsDid() {
        String a = due();
        String b = due();
        String c = due();
        String d = due();
        for (String id : List.of(a, b, c)) {
            assertThat(permits.claim(claim(id), List.of(RATE), false)).isEqualTo(Outcome.CLAIMED);
        }

        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        move(b, InstanceState.RUNNING, InstanceState.FAILED, 1); // taken over
        move(c, InstanceState.RUNNING, InstanceState.TIMEOUT, 1);
        for (String id : List.of(a, b, c)) {
            permits.release(id, 1);
        }

        assertThat(permits.claim(claim(d), List.of(RATE), false)).isEqualTo(Outcome.waits(RATE, List.of(a, b, c)));
        assertThat(state(d)).isEqualTo(InstanceState.SCHEDULED);
        timePasses(WINDOW);
        assertThat(permits.claim(claim(d), List.of(RATE), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10)).extracting(Held::slot, Held::instanceId).containsExactly(tuple(0, d));
    }

    @Test
    void aRatePermitIsFreeAgainOnceItsWindowHasPassedSinceItsOwnClaim() {
        Limit twoAMinute = new Limit("rate:group:mail", 2, WINDOW);
        String a = due();
        String b = due();
        String c = due();
        String d = due();
        permits.claim(claim(a), List.of(twoAMinute), false);
        timePasses(WINDOW.dividedBy(2));
        permits.claim(claim(b), List.of(twoAMinute), false);

        assertThat(permits.claim(claim(c), List.of(twoAMinute), false).result()).isEqualTo(Result.WAITS);
        timePasses(WINDOW.dividedBy(2)); // a's window is over, b's is not
        assertThat(permits.claim(claim(c), List.of(twoAMinute), false)).isEqualTo(Outcome.CLAIMED);
        Outcome waits = permits.claim(claim(d), List.of(twoAMinute), false);
        assertThat(waits.waitsFor()).isEqualTo(twoAMinute);
        assertThat(waits.holders()).as("in the order the store keeps them").containsExactlyInAnyOrder(b, c);
    }

    @Test
    void aReleaseNeitherFreesNorCountsARatePermit() {
        Limit once = new Limit(RATE.key(), 1, WINDOW);
        String a = due();
        String b = due();
        permits.claim(claim(a), List.of(MUTEX, once), false);

        assertThat(permits.release(a, 1))
                .as("the mutex's row stays while its attempt runs, where a release waits for the end to be stored")
                .isEqualTo(aReleaseWaitsForTheEndToBeStored() ? 1 : 0);
        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        assertThat(permits.release(a, 1)).isZero();

        assertThat(permits.held(10)).extracting(Held::key, Held::instanceId).containsExactly(tuple(once.key(), a));
        assertThat(permits.claim(claim(b), List.of(once), false)).isEqualTo(Outcome.waits(once, List.of(a)));
        assertThat(permits.claim(claim(b), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
    }

    @Test
    void aClaimTakesItsPermitAndItsRatePermitTogetherOrNeither() {
        Limit once = new Limit(RATE.key(), 1, WINDOW);
        String holder = due();
        String cancelled = due();
        String a = due();
        String b = due();
        String c = due();
        permits.claim(claim(holder), List.of(MUTEX), false);
        move(cancelled, InstanceState.SCHEDULED, InstanceState.CANCELLED, 0);

        assertThat(permits.claim(claim(a), List.of(MUTEX, once), false))
                .isEqualTo(Outcome.waits(MUTEX, List.of(holder)));
        assertThat(permits.claim(claim(cancelled), List.of(once), false)).isEqualTo(Outcome.NOT_APPLIED);
        assertThat(permits.claim(claim(b), List.of(once), false))
                .as("neither a nor the claim that did not apply took the rate's permit")
                .isEqualTo(Outcome.CLAIMED);

        move(holder, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        assertThat(permits.claim(claim(a), List.of(once, MUTEX), false)).isEqualTo(Outcome.waits(once, List.of(b)));
        assertThat(permits.claim(claim(c), List.of(MUTEX), false))
                .as("a took not the mutex's permit")
                .isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10))
                .extracting(Held::key, Held::instanceId)
                .containsExactly(tuple(MUTEX.key(), c), tuple(once.key(), b));
    }

    @Test
    void anAttemptGivenBackAndClaimedAgainKeepsItsRatePermitForItsWindow() {
        Limit two = new Limit(RATE.key(), 2, WINDOW);
        String a = due();
        String b = due();
        String c = due();
        permits.claim(claim(a), List.of(two), false);
        move(a, InstanceState.RUNNING, InstanceState.SCHEDULED, 1); // its node stopped before it started it

        assertThat(permits.claim(claim(a), List.of(two), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(b), List.of(two), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(c), List.of(two), false)).isEqualTo(Outcome.waits(two, List.of(a, b)));

        timePasses(WINDOW);
        move(a, InstanceState.RUNNING, InstanceState.SCHEDULED, 1);
        assertThat(permits.claim(claim(a), List.of(two), false))
                .as("its window over, a new one")
                .isEqualTo(Outcome.CLAIMED);
        assertThat(permits.claim(claim(c), List.of(two), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10)).extracting(Held::slot, Held::instanceId).containsExactly(tuple(0, a), tuple(1, c));
    }

    @Test
    void heldListsTheRatePermitsWithinTheirWindowWhateverTheirAttemptsDid() {
        String a = due();
        String b = due();
        permits.claim(claim(a), List.of(RATE), false);
        permits.claim(claim(b), List.of(RATE, EXPORT), false);
        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);

        assertThat(permits.held(10))
                .extracting(Held::key, Held::slot, Held::instanceId)
                .containsExactly(tuple(RATE.key(), 0, a), tuple(RATE.key(), 1, b), tuple(EXPORT.key(), 0, b));
        assertThat(permits.held(1)).extracting(Held::instanceId).containsExactly(a);

        timePasses(WINDOW);
        assertThat(permits.held(10)).extracting(Held::key, Held::instanceId).containsExactly(tuple(EXPORT.key(), b));
    }

    @Test
    void badClaimsAreRefusedWithAMessage() {
        String a = due();
        assertThatThrownBy(() -> permits.claim(claim(a), List.of(MUTEX, new Limit(MUTEX.key(), 2)), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two of " + MUTEX.key());
        assertThatThrownBy(() -> permits.claim(
                        new Transition(a, InstanceState.SCHEDULED, InstanceState.CANCELLED, 0, "n1", T0, ""),
                        List.of(MUTEX),
                        false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("from SCHEDULED to CANCELLED");
        assertThatThrownBy(() -> permits.claim(
                        new Transition(a, InstanceState.DISPATCHED, InstanceState.RUNNING, 1, "n1", T0, ""),
                        List.of(MUTEX),
                        false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("from DISPATCHED to RUNNING");
        assertThatThrownBy(() -> new Limit(" ", 1)).hasMessageContaining("1 to " + Permits.MAX_KEY_LENGTH);
        assertThatThrownBy(() -> new Limit("k".repeat(Permits.MAX_KEY_LENGTH + 1), 1))
                .hasMessageContaining("1 to " + Permits.MAX_KEY_LENGTH);
        assertThatThrownBy(() -> new Limit("task:export", 0)).hasMessageContaining("task:export has 0");
        assertThat(permits.held(10)).isEmpty();
    }

    @Test
    void manyRacingClaimsNeverHaveMoreHoldersThanPermits() throws Exception {
        Limit three = new Limit("group:race", 3);
        int threads = 8;
        int tries = 100;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger claimed = new AtomicInteger();
        race(threads, () -> {
            String id = due();
            for (int i = 0; i < tries; i++) {
                Outcome outcome = permits.claim(claim(id), List.of(three), false);
                if (outcome.result() == Result.WAITS) {
                    continue;
                }
                assertThat(outcome).isEqualTo(Outcome.CLAIMED);
                // counted from the claim's return to the end's call: inside the time the permit is held
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                claimed.incrementAndGet();
                assertThat(permits.held(10)).hasSizeLessThanOrEqualTo(three.permits());
                running.decrementAndGet();
                if (i % 3 == 0) {
                    // given back unstarted, and claimed again: its row is free meanwhile, for the others
                    // to take while it takes it back
                    move(id, InstanceState.RUNNING, InstanceState.SCHEDULED, 1);
                    continue;
                }
                move(id, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
                permits.release(id, 1);
                id = due();
            }
            return null;
        });
        assertThat(most.get()).isBetween(1, 3);
        assertThat(claimed.get()).isGreaterThanOrEqualTo(3);
        assertThat(permits.held(10)).isEmpty();
    }

    @Test
    void manyRacingClaimsOfARateStartNoMoreThanItsPermitsInItsWindow() throws Exception {
        Set<String> started = ConcurrentHashMap.newKeySet();
        race(8, () -> {
            String id = due();
            for (int i = 0; i < 30; i++) {
                Outcome outcome = permits.claim(claim(id), List.of(RATE), false);
                if (outcome.result() == Result.WAITS) {
                    continue;
                }
                assertThat(outcome).isEqualTo(Outcome.CLAIMED);
                started.add(id);
                move(id, InstanceState.RUNNING, InstanceState.SCHEDULED, 1);
                assertThat(permits.claim(claim(id), List.of(RATE), false))
                        .as("given back unstarted, it keeps its permit")
                        .isEqualTo(Outcome.CLAIMED);
                move(id, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
                permits.release(id, 1);
                id = due();
            }
            return null;
        });
        assertThat(started).hasSize(RATE.permits());
        assertThat(permits.held(10)).extracting(Held::instanceId).containsExactlyInAnyOrderElementsOf(started);
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    /** Runs {@code racer} on {@code threads} threads let go at once, and waits for each; throws what one threw. */
    private static void race(int threads, Callable<Void> racer) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> racers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                racers.add(pool.submit(() -> {
                    go.await();
                    return racer.call();
                }));
            }
            go.countDown();
            for (Future<?> r : racers) {
                r.get(120, TimeUnit.SECONDS); // throws what a racer threw
            }
        } finally {
            pool.shutdownNow();
            // a racer left running would write into the next test's store
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** A new SCHEDULED instance, due at once, of its own (no key): its id. */
    protected final String due() {
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

    /** The claim of a SCHEDULED instance's first attempt, by n1. */
    protected static Transition claim(String id) {
        return new Transition(id, InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T0, "claimed");
    }

    /** The claim of a RETRYING instance's {@code attempt}, by n1. */
    private static Transition retry(String id, int attempt) {
        return new Transition(id, InstanceState.RETRYING, InstanceState.RUNNING, attempt, "n1", T0, "retried");
    }

    /** Moves an instance, which must apply. */
    protected final void move(String id, InstanceState from, InstanceState to, int attempt) {
        assertThat(store.transition(new Transition(id, from, to, attempt, "n1", T0, from + " to " + to)))
                .as("%s %s to %s", id, from, to)
                .isTrue();
    }

    private InstanceState state(String id) {
        return store.find(id).orElseThrow().state();
    }

    private List<InstanceState> trail(String id) {
        return store.auditTrail(id).stream().map(AuditEntry::to).toList();
    }
}
