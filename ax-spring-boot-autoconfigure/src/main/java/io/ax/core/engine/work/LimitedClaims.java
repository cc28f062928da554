package io.ax.core.engine.work;

import io.ax.core.Transition;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.engine.PoolSettings;
import io.ax.core.engine.terms.DecisionTerms;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.threads.NamedThreadFactory;
import io.ax.core.engine.threads.OneThread;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.store.Permits;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The claims of attempts that need permits of cluster-wide limits: a group's {@code cluster-limit}, a task's {@code
 * maxConcurrent}, a mutex. Each is one transaction of the store ({@link Permits#claim}) that takes the permits and
 * moves the instance to RUNNING together, run on this class's threads ({@code ax-permits1} to {@code
 * ax-permits4}), several at once (the store settles two claims of one slot: one gets it). An
 * instance that finds a limit without a free permit stays SCHEDULED (or RETRYING) in the store and waits here, with
 * one audit row saying for what and behind whom; it is tried again as soon as an attempt of this node gives a permit
 * of its limit back, and every {@link #POLL} for permits given back on other nodes (or freed by the takeover of a dead
 * node's attempts). Waiters of one limit are tried highest priority first, then in due order.
 *
 * <p>The threads' queue holds at most one claim per place reserved in the pools and one release per attempt running,
 * so it is bounded by the pools' capacities.
 */
public final class LimitedClaims {

    private static final System.Logger LOG = EngineLog.get();

    /**
     * Claims with permits at once: each is a transaction that waits for the database, so one thread would bound a
     * node's limited claims by that round trip; claims of one key meet in the store, which takes one per slot.
     */
    static final int THREADS = 4;

    /** How often the first waiter of each limit is tried again, for permits freed elsewhere. */
    static final Duration POLL = Duration.ofMillis(250);

    /** How many waiting instances' first wait is remembered as audited (beyond, a wait may be audited again). */
    private static final int AUDITED_KEPT = 10_000;

    /** What follows a claim with permits, as its dispatch decides; each runs on the dispatch thread. */
    public interface Followup {

        /** The attempt was claimed with its permits and handed to its pool. */
        void started();

        /** The instance waits for a permit (one call per try that found none). */
        void waits();

        /** A waiter's turn came: dispatch it again, as it was dispatched. */
        void again();

        /**
         * It is no longer claimed here: the claim's condition failed (the instance moved on), or the store failed
         * or refused the claim's fence ({@code storeFailed}).
         */
        void notClaimed(boolean storeFailed);
    }

    /**
     * One instance waiting for a permit, with what dispatches it again.
     *
     * @param holders the instances that held the limit's permits when it last tried
     */
    private record Waiter(Due due, Followup followup, Permits.Limit waitsFor, List<String> holders) {

        /**
         * Whether only a release on this node can give it a permit: every holder it found is an attempt of this
         * node, of a limit of attempts at once (a rate's permits free with time, not with a release).
         */
        boolean waitsForHereOnly(java.util.Set<String> heldHere) {
            return !waitsFor.isRate() && !holders.isEmpty() && heldHere.containsAll(holders);
        }
    }

    private final Permits permits;
    private final Function<String, PoolSettings> poolOf;
    private final AttemptLimits limitsOf;

    private final Claimer claimer;
    private final ExecutionPools pools;
    private final EngineThreads threads;
    private final Consumer<FencedOutException> fencedOut;
    private final Consumer<Transition> claimed;
    private final ScheduledThreadPoolExecutor thread;

    /** Limit key -> the instances waiting for one of its permits, highest priority then earliest due first. */
    private final Map<String, PriorityQueue<Waiter>> waiting = new HashMap<>();
    /** A release that found its attempt's end not stored yet asks again this soon, then ever later, up to the max. */
    private static final Duration RELEASE_AGAIN_FIRST = Duration.ofMillis(2);

    private static final Duration RELEASE_AGAIN_MAX = Duration.ofMillis(500);

    /** How long a release asks again for an end that is not stored (an outage): then the store's rule frees it. */
    private static final Duration RELEASE_FOR = Duration.ofSeconds(30);

    /** How many looks at the waiters go by between two that try every limit (see {@link #pollWaiters}). */
    private static final int EVERY_LIMIT_EVERY = 20;

    /** Looks at the waiters so far; touched by the periodic look only, one run at a time. */
    private long polls;

    /** Instances whose attempts hold permits on this node: their release gives a turn without a look. */
    private final java.util.Set<String> heldHere = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Instances whose wait is in the audit already: one row per wait, not one per try. */
    private final Map<String, Boolean> audited = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > AUDITED_KEPT;
        }
    };

    /**
     * @param permits the store's permits, or null when it keeps none (a limited task is then refused when it is
     *     registered, so nothing here needs them)
     * @param poolOf the settings of a group's pool, for its cluster limit
     * @param payloadOf the stored payload of an instance, read on this class's threads
     * @param threads whose dispatch thread what follows a claim runs on
     * @param fencedOut told of a claim its fence refused (this node no longer owns the partition)
     * @param claimed told of every claim the store committed with its permits
     */
    public LimitedClaims(
            Permits permits,
            Function<String, PoolSettings> poolOf,
            Function<String, Optional<byte[]>> payloadOf,
            Claimer claimer,
            ExecutionPools pools,
            EngineThreads threads,
            Consumer<FencedOutException> fencedOut,
            Consumer<Transition> claimed) {
        this.fencedOut = fencedOut;
        this.claimed = claimed;
        this.permits = permits;
        this.poolOf = poolOf;
        this.limitsOf = new AttemptLimits(poolOf, payloadOf);
        this.claimer = claimer;
        this.pools = pools;
        this.threads = threads;
        this.thread = new ScheduledThreadPoolExecutor(THREADS, new NamedThreadFactory("ax-permits", true));
        thread.setRemoveOnCancelPolicy(true);
    }

    public void start() {
        thread.scheduleWithFixedDelay(this::pollWaiters, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
    }

    public void stop() {
        thread.shutdownNow();
    }

    /** Whether the thread has nothing to do but its periodic look at the waiters. */
    public boolean idle() {
        return OneThread.idle(thread);
    }

    /** Whether an attempt of {@code due} needs permits: its task or its group is limited across the cluster. */
    public boolean applies(Due due) {
        // a MEMORY instance lives in this process only; a limited task refuses them
        return !InstanceIds.isMemory(due.instanceId())
                && (due.task().limits().any()
                        || poolOf.apply(due.task().group()).limitedAcrossTheCluster());
    }

    /**
     * On the dispatch thread: claims {@code due} with its permits, off this thread. Its place in its pool is reserved
     * and its claim marked ({@link Claimer#claiming}); both are given back unless it starts.
     */
    public void claim(Due due, Transition claim, Instant decidedAt, Followup followup) {
        try {
            thread.execute(() -> claimNow(due, claim, decidedAt, followup));
        } catch (RejectedExecutionException stopped) {
            giveBack(due); // the engine stops: the instance stays due in the store
            followup.notClaimed(true);
        }
    }

    private void claimNow(Due due, Transition claim, Instant decidedAt, Followup followup) {
        String id = due.instanceId();
        Permits.Outcome outcome;
        List<Permits.Limit> limits;
        boolean audit;
        synchronized (this) {
            // taken before the claim: two claims of one instance at once (it was dispatched twice) on two of this
            // class's threads would both find no wait audited yet, and both write one
            audit = !audited.containsKey(id);
            if (audit) {
                audited.put(id, Boolean.FALSE);
            }
        }
        try {
            limits = limitsOf.of(due);
            outcome = permits.claim(claim, limits, audit);
        } catch (FencedOutException e) {
            forgetAuditTaken(id, audit);
            giveBack(due);
            onDispatch(() -> {
                fencedOut.accept(e);
                followup.notClaimed(true);
            });
            return;
        } catch (RuntimeException e) {
            forgetAuditTaken(id, audit);
            LOG.log(
                    Level.WARNING,
                    "Instance {0} could not be claimed with its permits; it stays due for the next sweep: {1}",
                    id,
                    e.toString());
            giveBack(due);
            onDispatch(() -> followup.notClaimed(true));
            return;
        }
        switch (outcome.result()) {
            case CLAIMED -> {
                synchronized (this) {
                    audited.remove(id);
                }
                claimed.accept(claim); // committed by the permits' own write, which no writer of this node saw
                StateWriter.logMove(claim, true);
                heldHere.add(id);
                claimer.run(
                        new Claimer.Claim(due, claim.attempt(), claim, decidedAt, DecisionTerms.epochOf(claim)),
                        work -> releasingAfter(due, claim.attempt(), limits, work));
                claimer.settled(id);
                onDispatch(followup::started);
                for (Permits.Limit limit : limits) {
                    if (limit.permits() > 1) {
                        turnOf(limit.key()); // more permits may be free (given back elsewhere): the next waiter tries
                    }
                }
            }
            case NOT_APPLIED -> {
                synchronized (this) {
                    audited.remove(id);
                }
                StateWriter.logMove(claim, false);
                giveBack(due);
                onDispatch(() -> followup.notClaimed(false));
            }
            case WAITS -> {
                synchronized (this) {
                    audited.put(id, Boolean.TRUE);
                    PriorityQueue<Waiter> queue =
                            waiting.computeIfAbsent(outcome.waitsFor().key(), k -> new PriorityQueue<>(FIRST));
                    if (queue.stream().noneMatch(w -> w.due().instanceId().equals(id))) {
                        queue.add(new Waiter(due, followup, outcome.waitsFor(), outcome.holders()));
                    }
                }
                LOG.log(
                        Level.DEBUG,
                        "Instance {0} of task ''{1}'' waits for a permit of {2} (held by {3})",
                        id,
                        due.task().name(),
                        outcome.waitsFor().key(),
                        outcome.holders());
                giveBack(due);
                onDispatch(followup::waits);
            }
        }
    }

    /** A claim that wrote nothing leaves the audit of a wait to the next. */
    private synchronized void forgetAuditTaken(String id, boolean taken) {
        if (taken) {
            audited.remove(id, Boolean.FALSE);
        }
    }

    /** Highest priority first, then the earliest due, then by id (so that the order is total). */
    private static final Comparator<Waiter> FIRST = Comparator.comparing(
            Waiter::due,
            Comparator.comparingInt(Due::priority)
                    .reversed()
                    .thenComparing(Due::scheduledTime)
                    .thenComparing(Due::instanceId));

    private void giveBack(Due due) {
        claimer.settled(due.instanceId());
        pools.unreserve(due.task().group());
    }

    /**
     * The work of a claimed attempt, followed by the release of its permits once its worker is done with it
     * (whatever the attempt came to), and a turn for the first waiter of each of its limits.
     */
    private Runnable releasingAfter(Due due, int attempt, List<Permits.Limit> limits, Runnable work) {
        return () -> {
            try {
                work.run();
            } finally {
                long since = System.nanoTime();
                if (permits.releasesAtOnce()) {
                    // here, not behind the claims queued on this class's threads, which wait for what it gives back
                    release(due.instanceId(), attempt, limits, RELEASE_AGAIN_FIRST, since);
                } else {
                    releaseLater(due.instanceId(), attempt, limits, Duration.ZERO, RELEASE_AGAIN_FIRST, since);
                }
            }
        };
    }

    /**
     * On this class's threads, or first on the attempt's worker where the permits are given back at once ({@link
     * Permits#releasesAtOnce}): gives the attempt's permits back. The worker is done with it, but the store may not have
     * its end yet (the end's write is in the group on its way): a permit whose attempt is still RUNNING stays, and is
     * asked for again a little later, waits doubling up to {@link #RELEASE_AGAIN_MAX}, for up to {@link
     * #RELEASE_FOR}; after that the store's own rule frees it once the end is stored, and waiters find it at their
     * next look.
     */
    private void release(String instanceId, int attempt, List<Permits.Limit> limits, Duration again, long since) {
        int kept;
        try {
            kept = permits.release(instanceId, attempt);
        } catch (RuntimeException e) {
            LOG.log(
                    Level.DEBUG,
                    "The permits of instance {0} attempt {1} were not given back now: {2}",
                    instanceId,
                    attempt,
                    e.toString());
            kept = 1;
        }
        if (kept > 0 && System.nanoTime() - since < RELEASE_FOR.toNanos()) {
            Duration next =
                    again.multipliedBy(2).compareTo(RELEASE_AGAIN_MAX) > 0 ? RELEASE_AGAIN_MAX : again.multipliedBy(2);
            releaseLater(instanceId, attempt, limits, again, next, since);
            return;
        }
        heldHere.remove(instanceId);
        for (Permits.Limit limit : limits) {
            turnOf(limit.key());
        }
    }

    /** The release of an attempt's permits on this class's threads in {@code in}, unless the engine stopped. */
    private void releaseLater(
            String instanceId, int attempt, List<Permits.Limit> limits, Duration in, Duration again, long since) {
        try {
            thread.schedule(
                    () -> release(instanceId, attempt, limits, again, since), in.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopped) {
            // the store's own rule frees them once their attempt is over
        }
    }

    /**
     * On this class's threads: the first waiter of every limit tries again, unless every permit it found taken is held
     * by an attempt of this node (whose release gives it a turn at once): a look costs a transaction, and a thousand
     * customers waiting behind their own mutexes here need none. Every {@link #EVERY_LIMIT_EVERY}th look tries every
     * limit all the same: a permit of an attempt here is free once the store has the attempt over (it timed out, its
     * handler deaf to the interrupt), before its worker gives it back.
     */
    private void pollWaiters() {
        List<String> keys = new ArrayList<>();
        boolean all = ++polls % EVERY_LIMIT_EVERY == 0;
        synchronized (this) {
            waiting.forEach((key, queue) -> {
                Waiter first = queue.peek();
                if (first != null && (all || !first.waitsForHereOnly(heldHere))) {
                    keys.add(key);
                }
            });
        }
        keys.forEach(this::turnOf);
    }

    /** The first waiter of a limit is dispatched again; it waits here again if the permit went to another. */
    private void turnOf(String key) {
        Waiter next;
        synchronized (this) {
            PriorityQueue<Waiter> queue = waiting.get(key);
            next = queue == null ? null : queue.poll();
            if (queue != null && queue.isEmpty()) {
                waiting.remove(key);
            }
        }
        if (next != null) {
            onDispatch(next.followup()::again);
        }
    }

    /** Whether an instance waits here for a permit. */
    public synchronized boolean waits(String instanceId) {
        for (PriorityQueue<Waiter> queue : waiting.values()) {
            for (Waiter w : queue) {
                if (w.due().instanceId().equals(instanceId)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** How many instances wait for a permit, per limit key (for the console). */
    public synchronized Map<String, Integer> waitingByLimit() {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        waiting.forEach((k, q) -> counts.put(k, q.size()));
        return counts;
    }

    private void onDispatch(Runnable work) {
        threads.onDispatchThread(work);
    }
}
