package io.ax.core.engine.writes;

import io.ax.core.AxException;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.logging.Loggers;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.store.OwnedInstance;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * The one thread ({@code ax-writer}) that writes to the store for the engine's hot path: state changes and new
 * fires. Callers on any thread hand writes in; the writer drains what has gathered and applies it with as few
 * store calls as it can ({@link InstanceStore#transitionAll}, {@link InstanceStore#schedule}), in the order the
 * writes were handed in, so the changes of one instance never overtake each other. A caller that needs the outcome
 * follows its future; the others go on.
 *
 * <p>A write that fails is never dropped: the group is tried again after a back-off that doubles up to
 * {@link #MAX_BACKOFF}, for as long as the store does not answer (an outage), then each write alone, so that one
 * write the store refuses for good (it answers, yet refuses that one {@link #POISON_AFTER} times) fails alone and
 * the others land. A write whose first try may have committed before its connection broke is checked against the
 * store when its retry finds it done already. While writes fail, {@link #outage()} says since when and why.
 *
 * <p>A MEMORY instance's writes do not queue: they apply at once to the in-memory store, whatever the database does.
 *
 * <p>A writer may {@link #giveWayTo give way} to another: before each group it waits, for a bounded time, while
 * that writer has writes queued or on their way. On a database with few cores, writers in parallel share its CPU: the
 * writes someone waits for (the starts of attempts) then go first, and the others (a series' next fires, planned
 * ahead; successful ends) follow in the gaps, never later than the bound.
 *
 * <p>The queue is bounded: when the store falls behind, callers wait for room (never the writer itself, whose own
 * follow-up writes go first). Writes are accepted from {@link #start} until {@link #stop}, which drains what is
 * queued in order; outside that window a write is refused with an {@link AxException}.
 *
 * <p>Why it is long: one thread owns the whole life of a write (grouping, back-off, isolating a poisoned write,
 * checking a write in doubt, the outage it reports), and that state is the thread's alone; split, it would be
 * shared.
 */
public final class StateWriter {

    /** The engine's log category, which applications configure; it names the facade, not this room. */
    private static final System.Logger LOG = Loggers.get("io.ax.core.engine.AxEngine");

    private static final int MAX_BATCH = 2_000;
    public static final Duration FIRST_BACKOFF = Duration.ofMillis(50);
    public static final Duration MAX_BACKOFF = Duration.ofSeconds(2);
    /** How often the store may refuse one write, while it answers otherwise, before that write fails for good. */
    public static final int POISON_AFTER = 3;

    /** A write handed in: a state change, or new instances. */
    private sealed interface Write permits Change, Fires {
        void fail(Throwable cause);
    }

    private record Change(Transition transition, CompletableFuture<Boolean> outcome) implements Write {
        public void fail(Throwable cause) {
            outcome.completeExceptionally(cause);
        }
    }

    private record Fires(List<NewFire> fires, long fence, CompletableFuture<boolean[]> outcome) implements Write {
        public void fail(Throwable cause) {
            outcome.completeExceptionally(cause);
        }
    }

    /**
     * Since when writes fail, and why.
     *
     * @param since when the first write failed
     * @param cause the error of the first failed write
     */
    public record Outage(Instant since, String cause) {}

    private enum Phase {
        NEW,
        RUNNING,
        DRAINING,
        STOPPED
    }

    private final InstanceStore store;
    private final BlockingQueue<Write> queue;
    /** Writes the writer hands itself (from a caller's follow-up that runs on this thread): they never wait. */
    private final ArrayDeque<Write> own = new ArrayDeque<>();

    private final Thread thread;
    private final String nodeId;
    private final AxClock clock;
    private final ChangeStamps stamps;
    private volatile Phase phase = Phase.NEW;
    /** Monotonic deadline of a stop's drain; writes still failing then fail. */
    private volatile long drainUntilNanos = Long.MAX_VALUE;

    private volatile Outage outage;
    private volatile Runnable onRecovery = () -> {};
    private volatile Runnable onOutage = () -> {};
    /** Told of every write the store committed, to find later which a failover lost; null for none. */
    private volatile RecentCommits commits;

    /** Whether a group is on its way to the store. */
    private volatile boolean flushing;
    /** Writes handed to this writer, and writes settled, so far: see {@link #barrier}. */
    private final java.util.concurrent.atomic.AtomicLong handed = new java.util.concurrent.atomic.AtomicLong();

    private final java.util.concurrent.atomic.AtomicLong settled = new java.util.concurrent.atomic.AtomicLong();
    /** Notified when this writer has nothing queued or on its way (see {@link #awaitIdle}). */
    private final Object idle = new Object();
    /** The writer this one gives way to, and for how long at most per group; null when it gives way to none. */
    private volatile StateWriter ahead;

    private volatile long giveWayNanos;
    /** The most writes of a group begun when the writer had nothing left to write (see {@link #startSmall}). */
    private volatile int firstGroupAfterIdle = MAX_BATCH;

    public StateWriter(InstanceStore store, int capacity, String nodeId, AxClock clock, String threadName) {
        this(store, capacity, nodeId, clock, new ChangeStamps(clock), threadName);
    }

    /**
     * @param stamps the times of the changes this writer makes ({@link #change}): one source for every writer of an
     *     engine, so that no two changes of the node carry the same time
     * @param threadName the writer thread's name: an engine has one writer for state changes, one for new fires, one
     *     for successful ends
     */
    public StateWriter(
            InstanceStore store, int capacity, String nodeId, AxClock clock, ChangeStamps stamps, String threadName) {
        this.nodeId = nodeId;
        this.clock = clock;
        this.stamps = stamps;
        this.store = store;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = new Thread(this::loop, threadName);
        this.thread.setDaemon(true);
    }

    /**
     * Lets {@code first} go first: before each group, this writer waits while {@code first} has writes queued or on
     * their way, at most {@code atMost} (so that its own writes are never held back for longer).
     */
    public void giveWayTo(StateWriter first, Duration atMost) {
        this.giveWayNanos = atMost.toNanos();
        this.ahead = first;
    }

    /**
     * A group begun when this writer had nothing left to write takes at most {@code writes}; the groups behind it are full. For
     * the claims of attempts: a burst's first claims commit in a few milliseconds, and its first handlers start then,
     * instead of after a full group (2,000 claims and their audit rows take a few hundred milliseconds on a small
     * database). Costs one more transaction per wave of work.
     */
    public void startSmall(int writes) {
        if (writes < 1) {
            throw new IllegalArgumentException("writes must be >= 1, was " + writes);
        }
        this.firstGroupAfterIdle = Math.min(writes, MAX_BATCH);
    }

    /**
     * A mark of every write handed to this writer so far: the answer says whether each of them is settled now (written,
     * refused, or given up), so that a reader of the store knows no change of this node from before the mark is still
     * on its way. Thread-safe; the answer never waits.
     */
    public java.util.function.BooleanSupplier barrier() {
        long mark = handed.get();
        return () -> settled.get() >= mark;
    }

    /** Whether no write is queued or on its way to the store. */
    public boolean idle() {
        return !busy();
    }

    /** Whether writes are queued or on their way to the store. */
    private boolean busy() {
        return flushing || !queue.isEmpty();
    }

    /** Waits until this writer has nothing queued or on its way, at most {@code nanos}, or until interrupted. */
    private void awaitIdle(long nanos) {
        long until = System.nanoTime() + nanos;
        synchronized (idle) {
            long left;
            while (busy() && (left = until - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(idle, left);
                } catch (InterruptedException e) {
                    return; // the waiting writer stops: it drains what it holds without giving way
                }
            }
        }
    }

    public void start() {
        phase = Phase.RUNNING;
        thread.start();
    }

    /** Runs on the writer thread each time writes land again after an outage. */
    public void onRecovery(Runnable action) {
        this.onRecovery = action;
    }

    /**
     * Tells {@code commits} of the writes that this writer finds committed after the store's answer was lost (a
     * connection cut while it committed); the store's router tells it of the rest.
     */
    public void recordCommits(RecentCommits commits) {
        this.commits = commits;
    }

    /** Runs on the writer thread when writes begin to fail; it must not block. */
    public void onOutage(Runnable action) {
        this.onOutage = action;
    }

    /** Since when, and why, the store refuses writes; empty while they land. */
    public Optional<Outage> outage() {
        return Optional.ofNullable(outage);
    }

    /** Whether writes fail right now: new work that would need one is better left in the store. */
    public boolean isFailing() {
        return outage != null;
    }

    /**
     * Hands in a transition; the future tells whether it applied (false: the instance was elsewhere).
     *
     * @throws AxException when the writer does not run (before the engine's start, after its stop)
     */
    public CompletableFuture<Boolean> submit(Transition transition) {
        if (InstanceIds.isMemory(transition.instanceId())) {
            // a MEMORY instance lives in this process: its change applies at once, on the caller's thread, and it
            // goes on while the database is away
            refuseUnlessRunning(transition.instanceId() + " " + transition.from() + " -> " + transition.to());
            return now(() -> store.transition(transition));
        }
        Change change = new Change(transition, new CompletableFuture<>());
        enqueue(change, transition.instanceId() + " " + transition.from() + " -> " + transition.to());
        return change.outcome();
    }

    /** Hands in transitions as one group; the futures tell, per transition, whether it applied. */
    public List<CompletableFuture<Boolean>> submitAll(List<Transition> transitions) {
        List<CompletableFuture<Boolean>> outcomes = new ArrayList<>(transitions.size());
        for (Transition t : transitions) {
            outcomes.add(submit(t));
        }
        return outcomes;
    }

    /**
     * Like {@link #submitAll}, for callers that follow outcomes without waiting: a write the writer refuses (the
     * engine stops) comes back as a failed future instead of an exception.
     */
    public List<CompletableFuture<Boolean>> submitAllOrFail(List<Transition> transitions) {
        List<CompletableFuture<Boolean>> outcomes = new ArrayList<>(transitions.size());
        for (Transition t : transitions) {
            try {
                outcomes.add(submit(t));
            } catch (AxException refused) {
                outcomes.add(CompletableFuture.failedFuture(refused));
            }
        }
        return outcomes;
    }

    /**
     * Hands in new instances (see {@link InstanceStore#schedule(List, long)}); the future tells, per fire, whether it
     * was written, or fails with a {@link FencedOutException}.
     */
    public CompletableFuture<boolean[]> schedule(List<NewFire> fires, long fence) {
        if (!fires.isEmpty()
                && fires.stream()
                        .allMatch(f -> InstanceIds.isMemory(f.instance().id()))) {
            refuseUnlessRunning(fires.size() + " new instance(s)");
            return now(() -> store.schedule(fires, fence));
        }
        Fires write = new Fires(List.copyOf(fires), fence, new CompletableFuture<>());
        enqueue(write, fires.size() + " new instance(s)");
        return write.outcome();
    }

    private static <T> CompletableFuture<T> now(java.util.function.Supplier<T> write) {
        try {
            return CompletableFuture.completedFuture(write.get());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void refuseUnlessRunning(String what) {
        if (phase != Phase.RUNNING) {
            throw new AxException(
                    "The AX engine is " + (phase == Phase.NEW ? "not started" : "stopped") + "; cannot record " + what);
        }
    }

    private void enqueue(Write write, String what) {
        handed.incrementAndGet();
        if (Thread.currentThread() == thread) {
            own.add(write);
            return;
        }
        try {
            while (!queue.offer(write, 100, TimeUnit.MILLISECONDS)) {
                if (phase != Phase.RUNNING) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            settled.incrementAndGet();
            throw new AxException("Interrupted while handing a state change to the AX writer: " + what, e);
        }
        if (phase != Phase.RUNNING && queue.remove(write)) {
            // checked after the offer: a stop that began meanwhile either drains this write or it is refused here
            settled.incrementAndGet();
            throw new AxException(
                    "The AX engine is " + (phase == Phase.NEW ? "not started" : "stopped") + "; cannot record " + what);
        }
    }

    /**
     * Applies what is queued, in order, then stops the writer thread; waits at most {@code awaitMillis}. Writes that
     * still fail then (the store is down) fail; later writes are refused.
     */
    public void stop(long awaitMillis) {
        if (phase == Phase.NEW) {
            phase = Phase.STOPPED;
            return;
        }
        drainUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(awaitMillis);
        phase = Phase.DRAINING;
        thread.interrupt(); // out of a wait for work or of a back-off
        try {
            thread.join(awaitMillis + 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        phase = Phase.STOPPED;
        AxException stopped = new AxException("The AX engine stopped before this change could be recorded");
        for (Write w; (w = queue.poll()) != null; ) {
            w.fail(stopped);
        }
    }

    private void loop() {
        List<Write> batch = new ArrayList<>(MAX_BATCH);
        boolean wasIdle = true; // nothing was left when the last group was written: the next begins a wave
        while (true) {
            Write first = own.poll();
            if (first == null) {
                try {
                    first = phase == Phase.RUNNING ? queue.take() : queue.poll();
                } catch (InterruptedException e) {
                    continue; // stop() interrupts: drain what is left, then leave
                }
            }
            if (first == null) {
                if (own.isEmpty()) {
                    break;
                }
                continue;
            }
            flushing = true;
            batch.add(first);
            giveWay();
            int max = wasIdle ? firstGroupAfterIdle : MAX_BATCH;
            while (batch.size() < max && !own.isEmpty()) {
                batch.add(own.poll());
            }
            queue.drainTo(batch, max - batch.size());
            flush(batch);
            settled.addAndGet(batch.size());
            batch.clear();
            flushing = false;
            wasIdle = queue.isEmpty() && own.isEmpty();
            if (wasIdle) {
                synchronized (idle) {
                    idle.notifyAll();
                }
            }
        }
        phase = Phase.STOPPED;
    }

    /** Waits, if this writer gives way, until the writer ahead is idle (bounded); not while the engine stops. */
    private void giveWay() {
        StateWriter first = ahead;
        if (first != null && phase == Phase.RUNNING) {
            first.awaitIdle(giveWayNanos);
        }
    }

    /** Applies a batch, trying again while the store fails; never throws. */
    private void flush(List<Write> batch) {
        int failures = 0;
        while (true) {
            try {
                if (apply(batch, failures > 0)) {
                    recovered(); // only a write that reached the store says it is back
                }
                return;
            } catch (RuntimeException e) {
                failures++;
                failing(e);
                if (stopping()) {
                    batch.forEach(w -> w.fail(e));
                    return;
                }
                if (failures >= 2) {
                    // the store may refuse one write for good: each alone, in order, so the others land
                    for (Write w : batch) {
                        flushAlone(w);
                    }
                    return;
                }
                backOff(failures);
            }
        }
    }

    private void flushAlone(Write w) {
        int refused = 0;
        int failures = 0;
        while (true) {
            try {
                if (apply(List.of(w), true)) {
                    recovered();
                }
                return;
            } catch (RuntimeException e) {
                failures++;
                failing(e);
                if (answers(w) && ++refused >= POISON_AFTER) {
                    LOG.log(Level.ERROR, "The store refuses a write for good; it is given up: {0}", e.toString());
                    w.fail(e);
                    return;
                }
                if (stopping()) {
                    w.fail(e);
                    return;
                }
                backOff(failures);
            }
        }
    }

    /** Whether the store answers a read about the write's instance(s): up, yet refusing this write. */
    private boolean answers(Write w) {
        try {
            store.findAll(List.of(firstId(w)));
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String firstId(Write w) {
        if (w instanceof Change c) {
            return c.transition().instanceId();
        }
        Fires f = (Fires) w;
        return f.fires().isEmpty() ? "" : f.fires().get(0).instance().id();
    }

    private boolean stopping() {
        return phase != Phase.RUNNING && System.nanoTime() >= drainUntilNanos;
    }

    private void backOff(int failures) {
        long millis = Math.min(MAX_BACKOFF.toMillis(), FIRST_BACKOFF.toMillis() << Math.min(failures - 1, 16));
        long until = Math.min(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis), drainUntilNanos);
        long left;
        while ((left = until - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                // stop() interrupts: the drain deadline now bounds the wait
                until = Math.min(until, drainUntilNanos);
            }
        }
    }

    private void failing(RuntimeException e) {
        if (outage == null) {
            outage = new Outage(clock.instant(), e.toString());
            LOG.log(
                    Level.WARNING,
                    "AX cannot write to its store; retrying with back-off, nothing is dropped: {0}",
                    e.toString());
            try {
                onOutage.run();
            } catch (RuntimeException failed) {
                LOG.log(Level.WARNING, "AX could not act on the store''s outage: {0}", failed.toString());
            }
        }
    }

    private void recovered() {
        Outage was = outage;
        if (was != null) {
            outage = null;
            LOG.log(
                    Level.INFO,
                    "AX writes to its store again (writes failed for {0} ms)",
                    Duration.between(was.since(), clock.instant()).toMillis());
            try {
                onRecovery.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "AX could not resume after the store came back: {0}", e.toString());
            }
        }
    }

    /**
     * Applies consecutive state changes with one call and each group of fires with one, in order, completing each
     * write's future. A deposed leader's changes fail with {@link FencedOutException}; the other changes in the
     * group (an owner's ends of attempts) stand.
     *
     * @param inDoubt whether an earlier try of these writes failed: one may have committed before its connection
     *     broke, so what seems lost is checked against the store
     * @return whether a write reached the store (false when every write of the batch was settled already)
     * @throws RuntimeException when the store fails; then no future is completed unless its write was settled
     */
    private boolean apply(List<Write> batch, boolean inDoubt) {
        boolean touched = false;
        int i = 0;
        while (i < batch.size()) {
            if (batch.get(i) instanceof Fires f) {
                if (!f.outcome().isDone()) {
                    applyFires(f, inDoubt);
                    touched = true;
                }
                i++;
                continue;
            }
            int j = i;
            List<Change> changes = new ArrayList<>();
            while (j < batch.size() && batch.get(j) instanceof Change c) {
                if (!c.outcome().isDone()) {
                    changes.add(c);
                }
                j++;
            }
            touched |= !changes.isEmpty();
            applyChanges(changes, inDoubt);
            i = j;
        }
        return touched;
    }

    private void applyChanges(List<Change> changes, boolean inDoubt) {
        if (changes.isEmpty()) {
            return;
        }
        List<Transition> transitions = new ArrayList<>(changes.size());
        for (Change c : changes) {
            transitions.add(c.transition());
        }
        boolean[] applied;
        try {
            applied = store.transitionAll(transitions);
        } catch (FencedOutException e) {
            // the changes of the fence that moved fail with it, the rest is applied again. A partition's fence is
            // told apart from the leader's, not one partition from another (a change does not name its partition):
            // the changes of partitions still owned fail as well, and their rows are found again by the next sweep
            boolean leaders = e.partition() == FencedOutException.LEADER;
            List<Change> others = new ArrayList<>(changes.size());
            for (Change c : changes) {
                Transition t = c.transition();
                if (leaders ? t.fence() > 0 : t.partitionEpoch() > 0) {
                    c.outcome().completeExceptionally(e);
                } else {
                    others.add(c);
                }
            }
            if (others.size() == changes.size()) {
                // none carried the fence the store names: applying them again would meet the same refusal
                others.forEach(c -> c.outcome().completeExceptionally(e));
                return;
            }
            applyChanges(others, inDoubt);
            return;
        }
        if (inDoubt) {
            settleInDoubt(changes, applied);
        }
        for (int k = 0; k < applied.length; k++) {
            changes.get(k).outcome().complete(applied[k]);
        }
    }

    /**
     * A change that seems lost had committed when the row holds that very change: its state, attempt and owner, and
     * its time, which no other change of this node carries ({@link ChangeStamps}). The state alone would not tell:
     * a second claim of an attempt this node runs already finds the row RUNNING with this node and this attempt,
     * and taken for won, it would start the attempt again.
     */
    private void settleInDoubt(List<Change> changes, boolean[] applied) {
        List<String> ids = new ArrayList<>();
        for (int k = 0; k < applied.length; k++) {
            if (!applied[k]) {
                ids.add(changes.get(k).transition().instanceId());
            }
        }
        if (ids.isEmpty()) {
            return;
        }
        Map<String, OwnedInstance> rows = new HashMap<>();
        for (OwnedInstance o : store.findAll(ids)) {
            rows.put(o.instance().id(), o);
        }
        RecentCommits record = commits;
        for (int k = 0; k < applied.length; k++) {
            Transition t = changes.get(k).transition();
            OwnedInstance row = rows.get(t.instanceId());
            if (!applied[k]
                    && row != null
                    && row.instance().state() == t.to()
                    && row.instance().attempt() == t.attempt()
                    && ChangeStamps.sameMicro(row.instance().updatedAt(), t.at())
                    && ownerAsExpected(t, row.owner())) {
                applied[k] = true;
                if (record != null) {
                    record.changed(t); // the store's answer missed it, so the store's router did not tell
                }
            }
        }
    }

    /** Whether the owner found is the one the change leaves (when the change says which). */
    private static boolean ownerAsExpected(Transition t, String found) {
        if (t.to() == InstanceState.SCHEDULED) {
            return found == null;
        }
        if (t.to().isFinal()) {
            return true; // the end of this very attempt: no other writer ends it the same way
        }
        String expected = t.owner() != null ? t.owner() : t.expectedOwner();
        return expected == null || expected.equals(found);
    }

    private void applyFires(Fires f, boolean inDoubt) {
        boolean[] written;
        try {
            written = store.schedule(f.fires(), f.fence());
        } catch (FencedOutException e) {
            f.outcome().completeExceptionally(e);
            return;
        }
        if (inDoubt) {
            // ids are new: a fire that seems a duplicate but whose id is in the store was written by the first try
            List<String> ids = new ArrayList<>();
            for (int k = 0; k < written.length; k++) {
                if (!written[k]) {
                    ids.add(f.fires().get(k).instance().id());
                }
            }
            if (!ids.isEmpty()) {
                java.util.Set<String> found = new java.util.HashSet<>();
                store.findAll(ids).forEach(o -> found.add(o.instance().id()));
                RecentCommits record = commits;
                for (int k = 0; k < written.length; k++) {
                    TaskInstance instance = f.fires().get(k).instance();
                    if (!written[k] && found.contains(instance.id())) {
                        written[k] = true;
                        if (record != null) {
                            record.created(instance); // as for a change settled in doubt
                        }
                    }
                }
            }
        }
        f.outcome().complete(written);
    }

    /** A conditional transition with its audit row; false when the instance was no longer in {@code from}. */
    public boolean move(String instanceId, InstanceState from, InstanceState to, int attempt, String reason) {
        return apply(change(instanceId, from, to, attempt, reason));
    }

    /** A change made by this node now, to be refined (owner, fence) and applied. */
    public Transition change(String instanceId, InstanceState from, InstanceState to, int attempt, String reason) {
        return new Transition(instanceId, from, to, attempt, nodeId, stamps.next(), reason);
    }

    /** The time of a change this node makes now: see {@link ChangeStamps}. */
    public Instant stamp() {
        return stamps.next();
    }

    /** Applies a transition and waits for the outcome; false when the instance was elsewhere. */
    public boolean apply(Transition t) {
        return outcome(submit(t), t);
    }

    /**
     * A change of an instance this node owns (the end of an attempt, a retry), conditional on owning it still; with
     * a {@code fence}, this node takes the instance over from {@code takenFrom} (a node that is gone; null for an
     * instance no node owned) instead, as that fence's decision.
     */
    public Transition owned(
            String instanceId,
            InstanceState from,
            InstanceState to,
            int attempt,
            String reason,
            String takenFrom,
            Fence fence) {
        Transition t = change(instanceId, from, to, attempt, reason);
        return fence.any() ? fence.takenFrom(t, takenFrom, nodeId) : t.ownedBy(nodeId);
    }

    /**
     * Records a transition without waiting for the store. For changes no other writer can contend for on this
     * node (the start and end of an attempt that this node's worker is running); they reach the store in order,
     * after every change handed in before them, however long the store is away.
     *
     * @return whether it was applied, once it was written (and logged when it was not)
     * @throws AxException when the writer does not run (the engine stopped): the change is not recorded
     */
    public CompletableFuture<Boolean> record(Transition t) {
        String instanceId = t.instanceId();
        InstanceState from = t.from();
        InstanceState to = t.to();
        return submit(t).whenComplete((applied, error) -> {
            if (error != null || !applied) {
                LOG.log(
                        Level.WARNING,
                        "Instance {0} {1} -> {2} was not recorded: {3}",
                        instanceId,
                        from,
                        to,
                        error != null ? error.toString() : "it was no longer " + from);
            } else {
                logMove(t, true);
            }
        });
    }

    public boolean outcome(CompletableFuture<Boolean> future, Transition t) {
        boolean applied = join(future);
        logMove(t, applied);
        return applied;
    }

    /** Waits for a write's outcome, rethrowing the store's exception as it was. */
    public static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** The exception a completed write's future holds (unwrapped), or null when it completed normally. */
    public static Throwable failure(CompletableFuture<?> outcome) {
        try {
            outcome.join();
            return null;
        } catch (CompletionException | java.util.concurrent.CancellationException e) {
            return e.getCause() != null ? e.getCause() : e;
        }
    }

    public static void logMove(Transition t, boolean applied) {
        if (LOG.isLoggable(Level.DEBUG)) {
            LOG.log(
                    Level.DEBUG,
                    "Instance {0} {1} -> {2} (attempt {3}){4}: {5}",
                    t.instanceId(),
                    t.from(),
                    t.to(),
                    t.attempt(),
                    applied ? "" : " lost the race",
                    t.reason());
        }
    }
}
