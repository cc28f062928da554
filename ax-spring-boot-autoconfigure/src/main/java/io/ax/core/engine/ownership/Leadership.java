package io.ax.core.engine.ownership;

import io.ax.core.AxTask;
import io.ax.core.clock.AxClock;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.Membership;
import io.ax.core.cluster.NodeStatus;
import io.ax.core.cluster.PartitionOwnership;
import io.ax.core.cluster.PartitionTerms;
import io.ax.core.cluster.Partitions;
import io.ax.core.engine.definitions.TaskRegistry;
import io.ax.core.engine.planning.FirePlanner;
import io.ax.core.engine.planning.Reconciliation;
import io.ax.core.engine.scheduling.Prefetcher;
import io.ax.core.engine.terms.Term;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.threads.NamedThreadFactory;
import io.ax.core.engine.threads.OneThread;
import io.ax.core.engine.work.Dispatcher;
import io.ax.core.engine.work.InstanceRunner;
import io.ax.core.engine.workflows.Workflows;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.engine.writes.StoreRouter;
import io.ax.core.store.OwnedInstance;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * What this node does because it owns partitions, and what it stops doing when it no longer does. A batch of
 * partitions gained runs the takeover for those partitions (paused tasks, the prefetch window, the series that lack
 * their next fire), adopts the work their dead owners left and moves their workflow runs on; a partition lost drops
 * what waits here for its rows; every tick works in the term of what the node owns then ({@link #currentTerm}). Every
 * poll interval (thread {@code ax-leader}, which it owns) it follows the instances it found running or assigned on
 * other live nodes when their partition came here ({@link RemoteHolders}). Every heartbeat it takes over the work of
 * nodes that died ({@link OrphanAdoption}) and reads which tasks are paused.
 *
 * <p>Why it is long: it is the one listener of the membership and of the partitions' moves, and orders what a gain,
 * a loss and a tick set going (the takeover, the sweeps, the reconciliation, the adoption of a dead node's work);
 * each of those is a part of its own, which it calls.
 */
public final class Leadership
        implements Membership.Listener, PartitionOwnership.Listener, Dispatcher.Holders, FirePlanner.FixedDelays {

    private static final System.Logger LOG = EngineLog.get();
    private static final int ORPHAN_PAGE = 10_000;
    /** How often, and how late, the leader looks for overdue instances that are not in its wheel. */
    private static final Duration SWEEP_EVERY = Duration.ofSeconds(1);

    private final String nodeId;
    private final AxClock clock;
    private final StoreRouter stores;
    /** The tasks this node knows, read only. */
    private final Map<String, AxTask> tasks;
    /**
     * The engine's tasks and which are paused. The leader keeps the paused ones as the store says (a pause or resume
     * taken on another node), and the takeover reads them in.
     */
    private final TaskRegistry registry;

    private final Workflows workflows;
    private final EngineThreads threads;
    private final StateWriter writer;
    /** An instance of another node ended: its task's slot, its series and its workflow run go on. */
    private final Consumer<Due> ended;

    // set once, before the engine starts, by attach: each is built after this class and hands it its decisions
    private Membership membership;
    private FirePlanner fires;
    private Dispatcher dispatcher;
    private Prefetcher prefetcher;
    private InstanceRunner runner;
    private java.util.function.Predicate<String> heldHere;
    private final ScheduledThreadPoolExecutor thread;
    /** What of this node's partitions runs or waits on other live nodes; built by attach. */
    private RemoteHolders holders;
    /** The takeover of dead nodes' work; built by attach. */
    private OrphanAdoption orphans;
    /** This node's own rows in flight that nothing here moves on; built by attach. */
    private UnheldWork unheld;

    private final AtomicLong failovers = new AtomicLong();
    private final Reconciliation reconciliation;

    private volatile Set<String> live = Set.of();
    /** Whether the ax-leader thread runs: until then (the engine's start) a takeover runs on the starting thread. */
    private volatile boolean ticking;
    /** A heartbeat read the nodes: the leader's next tick looks for dead nodes' work and for pauses. */
    private volatile boolean heartbeatSeen;
    /** When the last sweep for overdue instances ran; touched on ax-leader only. */
    private long lastSweepNanos;

    /** Partitions gained and lost since the last batch was taken up, by number, with their epochs. */
    private final Map<Integer, Long> gains = new HashMap<>();

    private final Map<Integer, Long> losses = new HashMap<>();
    /** Whether a batch is asked of ax-leader and not begun: moves heard meanwhile join it. */
    private final java.util.concurrent.atomic.AtomicBoolean takeUpPending =
            new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * How often an owner gives rows without a partition theirs: rows a writer wrote before any node recorded the
     * count are in no partition's reads until then.
     */
    private static final Duration FILL_EVERY = Duration.ofSeconds(10);
    /** When an owner last filled partitions (monotonic nanos); touched on ax-leader only. */
    private long lastFillNanos;

    public Leadership(
            String nodeId,
            AxClock clock,
            StoreRouter stores,
            TaskRegistry registry,
            Workflows workflows,
            EngineThreads threads,
            StateWriter writer,
            Consumer<Due> ended,
            Duration reconcileEvery) {
        this.nodeId = nodeId;
        this.clock = clock;
        this.stores = stores;
        this.registry = registry;
        this.tasks = registry.tasks();
        this.workflows = workflows;
        this.threads = threads;
        this.writer = writer;
        this.ended = ended;
        this.thread = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("ax-leader", true));
        // the planner is built after this class: each repair asks for it
        this.reconciliation = new Reconciliation(stores, clock, tasks, registry::isPaused, () -> fires, reconcileEvery);
        this.live = Set.of(nodeId);
    }

    /** The membership this node leads or follows by. */
    public void attach(Membership membership) {
        this.membership = membership;
    }

    /**
     * The parts that carry out the leader's decisions, built after this class; once, before the engine starts.
     *
     * @param heldHere whether this node holds an attempt of an instance: claiming it, or handed to its pool until its
     *     worker is done; a row RUNNING on this node that it does not hold has ended here (its end on its way)
     * @param storeFailing whether the store refuses this node's writes now
     * @param writesBarrier a mark of the writes this node's writers hold now, which says when they are all settled
     * @param succeededHere whether this node committed the SUCCESS of an instance's attempt lately
     */
    public void attach(
            FirePlanner fires,
            Dispatcher dispatcher,
            Prefetcher prefetcher,
            InstanceRunner runner,
            java.util.function.Predicate<String> heldHere,
            java.util.function.BooleanSupplier storeFailing,
            java.util.function.Supplier<java.util.function.BooleanSupplier> writesBarrier,
            java.util.function.BiPredicate<String, Integer> succeededHere) {
        this.fires = fires;
        this.dispatcher = dispatcher;
        this.prefetcher = prefetcher;
        this.runner = runner;
        this.heldHere = heldHere;
        ClusterSettings settings = membership.settings();
        this.holders = new RemoteHolders(
                nodeId, clock, stores, writer, threads, workflows, dispatcher, ended, settings.ackTimeout());
        this.orphans = new OrphanAdoption(
                nodeId,
                clock,
                stores,
                tasks,
                writer,
                threads,
                dispatcher,
                runner,
                holders,
                settings.lease().plus(settings.safetyMargin()));
        this.unheld = new UnheldWork(
                nodeId,
                clock,
                stores,
                tasks,
                heldHere,
                storeFailing,
                writesBarrier,
                dispatcher,
                runner,
                succeededHere,
                settings.lease());
    }

    public void start() {
        long every = membership.settings().pollInterval().toNanos();
        thread.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.NANOSECONDS);
        ticking = true;
    }

    public void stop() {
        thread.shutdownNow();
    }

    /** The epoch this node's decisions carry now; 0 when it does not lead (or its lease is about to end). */
    public long epoch() {
        return membership.epochIfLeader();
    }

    /**
     * The term this node decides rows in now, fixed for a round of decisions: the partitions it owns at their epochs;
     * null when it decides no row now (it owns nothing, or its heartbeat is too old).
     */
    Term currentTerm() {
        Map<Integer, Long> epochs = decidedPartitions();
        return epochs.isEmpty()
                ? null
                : Term.partitions(epochs, membership.partitions().orElseThrow().count());
    }

    /** Whether this node owns the partition of {@code partitionKey}, whether or not it may decide for it now. */
    private boolean ownsNow(String partitionKey) {
        PartitionTerms owned = membership.partitions().orElse(null);
        if (owned == null) {
            return false;
        }
        Map<Integer, Long> epochs = owned.owned();
        return !epochs.isEmpty() && Term.partitions(epochs, owned.count()).decides(partitionKey);
    }

    /** Whether this node decides any row now: {@link #currentTerm} is not null, without building the term. */
    public boolean decidesRows() {
        return !decidedPartitions().isEmpty();
    }

    /** The partitions whose rows this node loads, by number. */
    public int[] loadedPartitions() {
        return decidedPartitions().keySet().stream().mapToInt(Integer::intValue).toArray();
    }

    /** The partitions this node owns with their epochs while it may decide for them; empty otherwise. */
    private Map<Integer, Long> decidedPartitions() {
        PartitionTerms owned = membership.partitions().orElse(null);
        return owned == null || !owned.decides() ? Map.of() : owned.owned();
    }

    /**
     * An instance of this node's partitions is assigned to or runs on another live node (its partition came here
     * meanwhile): followed until acknowledged, or until it ends when its end matters here.
     */
    @Override
    public void assigned(Due due, String owner) {
        holders.follow(due, owner);
    }

    /**
     * Whether an instance was assigned to another node and this node has not heard of its end yet: it may have ended
     * there already, its end on its way here (that node's write, then this node's next look at what it follows).
     */
    @Override
    public boolean runsElsewhere(String instanceId) {
        return holders.runsElsewhere(instanceId);
    }

    /** How often this node looks at what it assigned. */
    @Override
    public Duration pollInterval() {
        return membership.settings().pollInterval();
    }

    private final java.util.concurrent.atomic.AtomicBoolean wakeUpPending =
            new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Another node wrote work due now (a run on demand, a delayed task): the leader looks for it now rather than at
     * its next sweep. Wake-ups that come while one is pending are one.
     */
    public void wakeUp() {
        if (!wakeUpPending.compareAndSet(false, true)) {
            return;
        }
        try {
            thread.execute(() -> {
                wakeUpPending.set(false);
                if (decidesRows()) {
                    prefetcher.sweepOverdue(Duration.ZERO); // due now: at once
                    prefetcher.rewind(); // due later inside the window: loaded again from its start
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            wakeUpPending.set(false);
        }
    }

    /**
     * A write carried a stale epoch: another node leads. A write queued before this node lost the lease and took it
     * again (an outage) carries an older epoch than the one it holds now: that one does not end its term.
     */
    public void fencedOut(FencedOutException e) {
        if (e.partition() >= 0) {
            // a partition moved: nothing more is decided for it here; the next ownership round hears of the move
            membership.partitions().ifPresent(owned -> owned.fencedOut(e.partition(), e.epoch()));
            return;
        }
        long current = membership.epochIfLeader();
        if (current != 0 && current <= e.epoch()) {
            LOG.log(Level.WARNING, "Node {0} is no longer the leader: {1}", nodeId, e.getMessage());
            membership.stepDown();
        }
    }

    /** What waits for the store's answer whether a holder ended: its two follow-ups. */
    private record EndAsked(Runnable ifEnded, Runnable otherwise) {}

    /** Holders asked about and not answered yet, in order; guarded by itself. */
    private final Map<String, List<EndAsked>> endsAsked = new java.util.LinkedHashMap<>();

    /**
     * A non-overlapping task's slot is held by an instance whose end this node never heard of (it ended on a node
     * taken for dead, say): the store is asked, on this thread; {@code ifEnded} frees the slot when it is over,
     * {@code otherwise} runs when it is not (both on the dispatch thread). The questions asked meanwhile are answered
     * by one read: a node that gains partitions may ask about thousands of holders at once.
     */
    @Override
    public void checkEnded(String instanceId, Runnable ifEnded, Runnable otherwise) {
        boolean first;
        synchronized (endsAsked) {
            first = endsAsked.isEmpty();
            endsAsked.computeIfAbsent(instanceId, id -> new ArrayList<>()).add(new EndAsked(ifEnded, otherwise));
        }
        if (!first) {
            return; // the read under way, or about to start, answers it
        }
        try {
            thread.execute(this::answerEnds);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // the engine stops
        }
    }

    /** On this thread: answers every question asked so far with one read of their rows. */
    private void answerEnds() {
        Map<String, List<EndAsked>> asked;
        synchronized (endsAsked) {
            asked = new java.util.LinkedHashMap<>(endsAsked);
            endsAsked.clear();
        }
        Set<String> unfinished = new HashSet<>();
        boolean known = true;
        try {
            for (io.ax.core.store.OwnedInstance o : stores.findAll(asked.keySet())) {
                if (!o.instance().state().isFinal()) {
                    unfinished.add(o.instance().id());
                }
            }
        } catch (RuntimeException e) {
            known = false; // cannot tell now: the slots stay taken until a later fire asks again
        }
        for (Map.Entry<String, List<EndAsked>> question : asked.entrySet()) {
            boolean ended = known && !unfinished.contains(question.getKey()); // a row gone is over too
            for (EndAsked a : question.getValue()) {
                threads.onDispatchThread(ended ? a.ifEnded() : a.otherwise());
            }
        }
    }

    /**
     * Reads, on ax-leader, whether an instance is in flight on a node (DISPATCHED or RUNNING), and answers on the
     * dispatch thread with its row, or null when it is not (it ended, waits SCHEDULED, is gone, or the store cannot
     * tell now).
     */
    @Override
    public void findInFlight(String instanceId, java.util.function.Consumer<OwnedInstance> answer) {
        try {
            thread.execute(() -> {
                OwnedInstance held = null;
                try {
                    held = stores.findAll(List.of(instanceId)).stream()
                            .filter(o -> o.owner() != null
                                    && Recovery.IN_FLIGHT.contains(o.instance().state()))
                            .findFirst()
                            .orElse(null);
                } catch (RuntimeException e) {
                    // cannot tell now: as before the read, the slot is freed (a later fire meets the row's state)
                }
                OwnedInstance row = held;
                threads.onDispatchThread(() -> answer.accept(row));
            });
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // the engine stops
        }
    }

    // ---- Membership.Listener: on the ax-cluster thread (or the starting thread) --------------------------------

    @Override
    public void leading(long epoch) {
        // the owners of the partitions decide the rows; the lease keeps what needs one node for the whole cluster
        // (retention), which asks it itself
        failovers.incrementAndGet();
    }

    // ---- PartitionOwnership.Listener: on ax-partitions ----------------------------------------------------------

    /**
     * A partition is this node's now: gathered, and taken up on ax-leader with the others of its round (the takeover
     * reads the store once for the batch, not once per partition). Before the engine ticks, the starting thread takes
     * them up ({@link #takeUpMoves}).
     */
    @Override
    public void gained(int partition, long epoch) {
        synchronized (gains) {
            gains.put(partition, epoch);
            losses.remove(partition);
        }
        takeUpSoon();
    }

    /**
     * A partition is no longer this node's. Its decisions stopped already ({@link PartitionTerms} answers 0 for it);
     * what waits here for its rows is dropped on ax-leader. Attempts running here go on: their ends are fenced by
     * owner and attempt, not by the partition.
     */
    @Override
    public void lost(int partition, long epoch) {
        synchronized (gains) {
            gains.remove(partition);
            losses.put(partition, epoch);
        }
        takeUpSoon();
    }

    private void takeUpSoon() {
        if (!ticking || !takeUpPending.compareAndSet(false, true)) {
            return; // the starting thread, or the batch already asked for, takes this one up too
        }
        try {
            thread.execute(() -> {
                takeUpPending.set(false);
                takeUpMoves();
            });
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            takeUpPending.set(false);
        }
    }

    /**
     * On ax-leader (or the starting thread, before the engine ticks): the partitions gained and lost since the last
     * batch. A loss drops this node's waiting fires and slots of the partition's tasks; a gain runs the takeover for
     * the gained partitions only, then adopts the work their dead owners left and moves their workflow runs on, each
     * write fenced by its partition's epoch. A gain that fails (the store does not answer) is taken up again at the
     * next tick, if the partition is still this node's.
     */
    public void takeUpMoves() {
        Map<Integer, Long> gained;
        Map<Integer, Long> lost;
        synchronized (gains) {
            gained = new HashMap<>(gains);
            lost = new HashMap<>(losses);
            gains.clear();
            losses.clear();
        }
        if (gained.isEmpty() && lost.isEmpty()) {
            return;
        }
        PartitionTerms owned = membership.partitions().orElse(null);
        if (owned == null) {
            return;
        }
        if (!lost.isEmpty()) {
            forgetPartitions(lost.keySet(), owned);
        }
        Map<Integer, Long> now = owned.owned();
        gained.entrySet().removeIf(g -> !g.getValue().equals(now.get(g.getKey()))); // lost again, or taken anew
        if (gained.isEmpty()) {
            return;
        }
        Term term = Term.partitions(gained, owned.count());
        try {
            // rows written before the count was known are in no partition's reads or fences until they have one
            while (stores.fillPartitions(owned.count(), ORPHAN_PAGE) == ORPHAN_PAGE) {
                // another page
            }
            lastFillNanos = clock.nanoTime();
            // the gained partitions' rows alone: a move reads what moved, not every row in flight in the cluster
            int[] batch = gained.keySet().stream().mapToInt(Integer::intValue).toArray();
            takeOver(term, batch);
            adoptOrphans(term, batch);
            workflows.sweep(term); // runs whose steps ended while no node owned them go on
        } catch (FencedOutException e) {
            // one of them moved on meanwhile: it is dropped, and the others' takeover runs again at the next tick
            fencedOut(e);
            takeUpAgain(gained);
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "Node {0} could not take up {1} partition(s) it gained; trying again: {2}",
                    nodeId,
                    gained.size(),
                    e.toString());
            takeUpAgain(gained);
        }
    }

    /** Gains whose takeover did not finish: the next tick takes up those still owned at the same epoch. */
    private void takeUpAgain(Map<Integer, Long> gained) {
        synchronized (gains) {
            gained.forEach(gains::putIfAbsent);
        }
    }

    /**
     * The fires, catch-ups and slots this node held for the rows of {@code lost} go, unless it owns the partition
     * again by now. What sits in its wheel stays until its time, when the dispatch finds it undecided here and leaves
     * it in the store for its owner.
     */
    private void forgetPartitions(Set<Integer> lost, PartitionTerms owned) {
        Set<Integer> gone = new HashSet<>(lost);
        gone.removeAll(owned.owned().keySet());
        if (gone.isEmpty()) {
            return;
        }
        int count = owned.count();
        java.util.function.Predicate<String> theirs = key -> gone.contains(Partitions.of(key, count));
        holders.forget(theirs);
        fires.forget(theirs);
        // a task's slot and the fires waiting for it belong to the partition of the task's name
        threads.onDispatchThread(() -> dispatcher.forget(theirs));
    }

    /** @param partitions the partitions {@code term} holds */
    private void takeOver(Term term, int[] partitions) {
        new Takeover(stores, clock, nodeId, registry, heldHere, fires, dispatcher, prefetcher, writer, this)
                .run(term, partitions);
    }

    /**
     * On the watchdog thread: this node's heartbeat is so old that the others may take it for dead and run its work
     * again. What it runs of that work stops here now (never blocking: the outcomes are recorded once the store
     * answers).
     */
    @Override
    public void cutOff(Duration unreachedFor) {
        int stopped = runner.stopPersistentAttempts("node " + nodeId + " could not reach the cluster store for "
                + unreachedFor.toMillis() + " ms, longer than the other nodes wait before they take its work"
                + " over; attempt interrupted");
        if (stopped > 0) {
            LOG.log(Level.WARNING, "Node {0} interrupted {1} running attempt(s): it is cut off", nodeId, stopped);
        }
    }

    @Override
    public void following() {
        // nothing this node holds for its partitions was the lease holder's
    }

    @Override
    public void nodes(List<NodeStatus> nodes) {
        Set<String> now = new HashSet<>();
        for (NodeStatus n : nodes) {
            now.add(n.nodeId()); // a stopping node too: its running work is not orphaned
        }
        now.add(nodeId); // this node runs, whatever its last heartbeat says
        if (!now.equals(live)) {
            live = Set.copyOf(now);
        }
        heartbeatSeen = true;
    }

    /** Pause and resume taken on any node reach every node within a heartbeat. */
    private void readPaused() {
        // the paused rows alone: every task's row, read by every node each heartbeat, cost the database as much as
        // the fires of thousands of tasks
        Set<String> paused = stores.pausedTasks();
        for (String name : paused) {
            if (tasks.containsKey(name)) {
                registry.pause(name);
            }
        }
        for (String name : List.copyOf(registry.paused())) {
            if (paused.contains(name) || !tasks.containsKey(name)) {
                continue;
            }
            // paused here, not in the store: resumed on another node, if the store holds the task at all
            boolean resumed = stores.findTask(name).map(t -> !t.paused()).orElse(false);
            if (resumed && registry.resume(name)) {
                resumeNow(tasks.get(name), "resumed on another node");
            }
        }
    }

    /**
     * Takes over the unfinished work of nodes that are not alive, unless this node is just back from a break (the
     * others' heartbeats catch up within one; until then none is judged dead).
     */
    private void adoptOrphans(Term term, int[] partitions) {
        if (membership.reachesStoreFor(membership.settings().lease())) {
            orphans.adopt(term, partitions, live);
        }
    }

    // ---- every poll interval, on ax-leader ----------------------------------------------------------------

    private void tick() {
        takeUpMoves(); // partitions a failed batch left, or gained while the engine started
        try {
            // this node's own rows, whatever it owns now: an attempt moves on where it was claimed
            unheld.tick();
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "Node {0} could not check its own instances in flight; trying again: {1}",
                    nodeId,
                    e.toString());
        }
        Term term = currentTerm();
        if (term == null) {
            if (heartbeatSeen) {
                // every node knows which tasks are paused, wherever the pause was made: its MEMORY executions of a
                // paused task wait, and isPaused answers as the store does
                heartbeatSeen = false;
                try {
                    readPaused();
                } catch (RuntimeException e) {
                    // the store does not answer: the next heartbeat's round reads them again
                }
            }
            return;
        }
        try {
            if (heartbeatSeen) {
                heartbeatSeen = false;
                readPaused();
                adoptOrphans(term, loadedPartitions());
                workflows.sweep(term); // ends this node did not hear of: replays elsewhere, say
            }
            holders.followUp(term);
            long now = clock.nanoTime();
            if (now - lastFillNanos >= FILL_EVERY.toNanos()) {
                lastFillNanos = now;
                membership.partitions().ifPresent(owned -> stores.fillPartitions(owned.count(), ORPHAN_PAGE));
            }
            if (now - lastSweepNanos >= SWEEP_EVERY.toNanos()) {
                // what other nodes wrote inside the window (without a wake-up) is found here, about a second late
                lastSweepNanos = now;
                prefetcher.sweepOverdue(SWEEP_EVERY);
            }
            reconciliation.tick(term);
        } catch (FencedOutException e) {
            fencedOut(e);
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "Node {0} could not follow what other nodes hold of its partitions; retrying: {1}",
                    nodeId,
                    e.toString());
        }
    }

    /** Whether no one-off work waits for or runs on {@code ax-leader}: only its periodic round is queued. */
    public boolean idle() {
        return OneThread.idle(thread);
    }

    /**
     * How often, and how long apart, the next fire of a fixed-delay series is tried again when the store did not
     * answer, or this node could not decide for the partition it owns (its heartbeat too old): through an outage or a
     * failover of a few seconds, the series goes on as soon as the store is back rather than at the reconciliation's
     * second look.
     */
    private static final int SERIES_TRIES = 30;

    private static final Duration SERIES_TRY_EVERY = Duration.ofSeconds(1);

    /** An instance of a fixed-delay series ended: its next fire is planned on ax-leader, if this node leads. */
    @Override
    public void continueFixedDelay(Due due, Instant completed) {
        continueFixedDelay(due, completed, 1);
    }

    private void continueFixedDelay(Due due, Instant completed, int tried) {
        Runnable plan = () -> {
            Term term = currentTerm();
            if (term == null || !term.decides(due.partitionKey())) {
                if (ownsNow(due.partitionKey()) && tried < SERIES_TRIES) {
                    // still this node's, though it may not decide while its heartbeat is old (an outage, a
                    // failover): nobody takes the partition up, so the series waits here for its owner to decide
                    continueFixedDelay(due, completed, tried + 1);
                }
                return; // moved on: its new owner follows the run to its end or plans the series as it takes over
            }
            try {
                fires.continueSeries(due, completed, term);
            } catch (FencedOutException e) {
                fencedOut(e);
            } catch (RuntimeException e) {
                if (tried < SERIES_TRIES) {
                    LOG.log(
                            Level.DEBUG,
                            "Could not plan the next fire of ''{0}'' now; trying again in {1}: {2}",
                            due.task().name(),
                            SERIES_TRY_EVERY,
                            e.toString());
                    continueFixedDelay(due, completed, tried + 1);
                } else {
                    LOG.log(
                            Level.WARNING,
                            "Could not plan the next fire of ''{0}'' in {1} tries; the reconciliation will: {2}",
                            due.task().name(),
                            tried,
                            e.toString());
                }
            }
        };
        try {
            if (tried == 1) {
                thread.execute(plan);
            } else {
                thread.schedule(plan, SERIES_TRY_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // the engine stops: the next leader plans it
        }
    }

    /**
     * An instance of a task with downstream tasks ended on this node: if it leads, its run goes on (on ax-leader).
     * Otherwise the leader hears of it by following its assignment, or finds it in its next sweep.
     */
    public void advanceRun(String instanceId) {
        advanceRun(instanceId, 0);
    }

    /** How often, and how long apart, the leader looks again for an end whose write is still on its way. */
    private static final int END_LOOKS = 40;

    private static final Duration END_LOOK_EVERY = Duration.ofMillis(50);

    private void advanceRun(String instanceId, int looked) {
        try {
            thread.schedule(
                    () -> {
                        Term term = currentTerm();
                        if (term == null) {
                            return;
                        }
                        try {
                            // the end is written by the state writer, behind other writes: looked for again until
                            // it is in the store (after END_LOOKS, the sweep finds it)
                            if (!workflows.advance(instanceId, term) && looked < END_LOOKS) {
                                advanceRun(instanceId, looked + 1);
                            }
                        } catch (FencedOutException e) {
                            fencedOut(e);
                        } catch (RuntimeException e) {
                            LOG.log(
                                    Level.WARNING,
                                    "Could not move the workflow run of instance {0} on now; the next sweep will: {1}",
                                    instanceId,
                                    e.toString());
                        }
                    },
                    looked == 0 ? 0 : END_LOOK_EVERY.toNanos(),
                    TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // the engine stops: the next leader's sweep moves the run on
        }
    }

    /** A task was resumed on this node: if it leads, its series starts again (on ax-leader). */
    public void resumed(AxTask task, String why) {
        try {
            thread.execute(() -> resumeNow(task, why));
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // the engine stops: the next leader plans it
        }
    }

    /**
     * On ax-leader: a paused task was resumed. Its MEMORY executions held here go, its series is planned from now,
     * and what waited in the store is swept in.
     */
    private void resumeNow(AxTask task, String why) {
        threads.onDispatchThread(() -> dispatcher.resume(task.name()));
        Term term = currentTerm();
        if (term == null || !term.decides(task.name())) {
            return; // the node that decides the task's series plans it when it reads the resume
        }
        try {
            fires.scheduleFires(fires.planResumed(task, why), term);
        } catch (RuntimeException e) {
            // the reconciliation gives the series its next fire
            LOG.log(Level.WARNING, "Could not plan the resumed task ''{0}'' now: {1}", task.name(), e.toString());
        }
        wakeUp();
    }

    /**
     * The store takes writes again after an outage: what fell due meanwhile is swept now, and the series are checked
     * soon.
     */
    public void storeBack() {
        reconciliation.soon();
        wakeUp();
    }

    /** Series the reconciliation gave their next fire again. */
    public long repairedSeries() {
        return reconciliation.repaired();
    }

    /** This node's own instances in flight that it found no longer moved on, and moved on, since it started. */
    public long repairedInFlight() {
        return unheld == null ? 0 : unheld.repaired();
    }

    /** Instances taken back from their node, by reason: {@code ack-timeout} or {@code node-gone}. */
    public Map<String, Long> reassigned() {
        return Map.of("ack-timeout", holders.takenBack(), "node-gone", orphans.adopted());
    }

    /** How often this node became leader. */
    public long failovers() {
        return failovers.get();
    }
}
