package io.ax.core.engine;

import io.ax.core.AxClockJumpEvent;
import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxException;
import io.ax.core.AxIdempotency;
import io.ax.core.AxScheduler;
import io.ax.core.AxTask;
import io.ax.core.DeadLetter;
import io.ax.core.Durability;
import io.ax.core.IllegalTransitionException;
import io.ax.core.InstanceDetails;
import io.ax.core.InstanceState;
import io.ax.core.Operator;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskDefinition;
import io.ax.core.TaskInstance;
import io.ax.core.UnknownInstanceException;
import io.ax.core.UnknownTaskException;
import io.ax.core.clock.AxClock;
import io.ax.core.clock.ClockJumpDetector;
import io.ax.core.clock.ClockStatus;
import io.ax.core.clock.ClusterTime;
import io.ax.core.clock.ClusterTimeStatus;
import io.ax.core.cluster.ClusterProtocol;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.ClusterView;
import io.ax.core.cluster.EpochMirroringLease;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.LocalLeaderLease;
import io.ax.core.cluster.LocalNodeRegistry;
import io.ax.core.cluster.LocalPartitionLeases;
import io.ax.core.cluster.Membership;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.PartitionLeases;
import io.ax.core.cluster.PartitionTerms;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.definitions.RuntimeTasks;
import io.ax.core.engine.definitions.TaskRegistry;
import io.ax.core.engine.insight.ActivityRollup;
import io.ax.core.engine.insight.Insight;
import io.ax.core.engine.insight.Listeners;
import io.ax.core.engine.insight.StoreFigures;
import io.ax.core.engine.ownership.DecisionTerms;
import io.ax.core.engine.scheduling.DelayedTasks;
import io.ax.core.engine.scheduling.MemoryExecutions;
import io.ax.core.engine.scheduling.Prefetcher;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.threads.MemoryTask;
import io.ax.core.engine.work.Claimer;
import io.ax.core.engine.work.ExecutionPools;
import io.ax.core.engine.work.InstanceRunner;
import io.ax.core.engine.workflows.Workflows;
import io.ax.core.engine.writes.ChangeStamps;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.engine.writes.StoreRouter;
import io.ax.core.store.ActivityStore;
import io.ax.core.store.InMemoryActivityStore;
import io.ax.core.store.InMemoryIdempotency;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceQuery;
import io.ax.core.store.InstanceStore;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The engine of one node: computes fire times, keeps what is due soon in a hierarchical time wheel, dispatches due
 * instances to bounded pools, enforces timeouts, retries with back-off and dead-letters what never succeeds. Every
 * state change goes through the store, conditionally, along the arrows of {@link InstanceState}.
 *
 * <p>Threads, each with the one class that owns it:
 *
 * <ul>
 *   <li>{@code ax-wheel} (the timer made by the builder's factory), {@code ax-dispatch-1} and {@code ax-outcomes-1}
 *       ({@link EngineThreads}): the wheel only moves due work on to the dispatch, which makes the trigger decisions
 *       of fires, retries and timeouts and hands work to the pools; the outcomes thread does the store work that
 *       follows an end the dispatch noticed;
 *   <li>{@code ax-<group>-<n>} ({@link ExecutionPools}): the attempts, one bounded pool per group, of platform threads
 *       or, where the group says so, of virtual threads;
 *   <li>{@code ax-writer}, {@code ax-fire-writer}, {@code ax-end-writer} ({@link io.ax.core.engine.writes.StateWriter},
 *       one each): the writes to the store;
 *   <li>{@code ax-cluster} and its watchdog {@code ax-cluster-watch} ({@link io.ax.core.cluster.Membership}): heartbeats,
 *       the lease, the deadlines of both; {@code ax-partitions} (the same): the partitions' rounds; {@code ax-cluster-time} ({@link io.ax.core.clock.ClusterTime}): the offset
 *       to the database's clock;
 *   <li>{@code ax-leader1} ({@link Leadership}): the leader's takeover, the assignments it follows, its sweeps;
 *       {@code ax-claim1} ({@link AssignmentPoller}): this node's look at what was assigned to it;
 *   <li>{@code ax-prefetch1} ({@link Prefetcher}): the prefetch window's loads; {@code ax-definitions1} ({@link
 *       RuntimeTasks}): the runtime task definitions; {@code ax-retention-1} ({@link Retention}): the deletion of old
 *       rows; {@code ax-activity-1} ({@link ActivityRollup}): this node's per-minute counts, written for the
 *       charts; {@code ax-figures1} ({@link StoreFigures}): the store's figures for health;
 *   <li>{@code ax-clock} ({@link ClockGuard}): the clock watch that pauses trigger decisions when the clock jumps;
 *       {@code ax-events-1} ({@link Listeners}): the application's listeners;
 *   <li>{@code ax-stop} (this class, during {@link #stop} only): each bounded step of a stop.
 * </ul>
 *
 * Thread-safe. Build one with {@link #builder}.
 *
 * <p>Why it is long, for now: it is the facade (the documented methods of {@code AxScheduler} and of the operator's
 * API, each a few lines that delegate) and the wiring of the parts; the wiring is next to move, to a class of its
 * own.
 */
public final class AxEngine implements AxScheduler, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(AxEngine.class.getName());
    private static final int WRITE_QUEUE_CAPACITY = 100_000;
    /**
     * How long the writers of new fires and of successful ends wait at most, before each group, for the writer of
     * starts to be idle: long enough to let a large group of starts go first, short enough that a series planned a
     * second ahead still has its next fire in the store in time.
     */
    static final Duration GIVE_WAY = Duration.ofMillis(250);

    /** How old the store's figures (the dead letters) may be before a look at them reads them again. */
    private static final Duration FIGURES_REFRESH = Duration.ofSeconds(1);
    /** How often a partitioned node looks for instances left DISPATCHED to it (see the poller's construction). */
    private static final Duration PARTITIONED_ASSIGNMENT_LOOK = Duration.ofSeconds(5);

    private enum Lifecycle {
        NEW,
        STARTED,
        STOPPED
    }

    private final InstanceStore store;
    private final ExecutorRouter router;
    private final ExecutionPools pools;
    private final AxClock clock;
    private final String nodeId;
    private final Duration shutdownAwait;
    private final List<Consumer<AxDeadLetterEvent>> deadLetterListeners;
    private final Listeners listeners = new Listeners();

    /** The registered tasks and the paused ones, changed only through it; the field below is its view of the first. */
    private final TaskRegistry taskRegistry = new TaskRegistry();

    private final Map<String, AxTask> tasks = taskRegistry.tasks();
    private final StoreRouter stores;
    /** The wheel, the dispatch thread and the outcomes thread. */
    private final EngineThreads threads;

    private final FirePlanner fires;
    private final Dispatcher dispatcher;
    private final InstanceRunner runner;
    private final StateWriter writer;
    /**
     * The writer of new fires (a series' next ones): a connection of their own, beside the state changes', so that
     * planning ahead and recording outcomes go on side by side. New fires are new rows: no order to keep with the
     * changes of other instances.
     */
    private final StateWriter fireWriter;
    /**
     * Writes the successful ends of attempts, apart from {@link #writer}: a group of starts never queues behind the
     * ends of the group before it. An end is handed in only after its start was confirmed, so the two never
     * overtake each other for one instance.
     */
    private final StateWriter endWriter;

    private final Insight insight;
    /** This node's per-minute counts, written to the store for the cluster's charts. */
    private final ActivityRollup activity;
    /** The dead letters, read in the background for health and insight. */
    private final StoreFigures figures;

    private final ClockGuard clockGuard;
    private final Operations operations;
    private final Membership membership;
    private final Leadership leadership;
    /** At which epoch this node decides for a row: the leader's for every row, or the row's partition's. */
    private final DecisionTerms terms;

    private final Retention retention;
    private final AssignmentPoller poller;
    private final WakeUps wakeUps;
    private final AxIdempotency idempotency;
    private final ClusterTime clusterTime; // null: the clock is taken as it is
    private final Prefetcher prefetcher;
    private final DelayedTasks delayed;
    private final Workflows workflows;
    private final RuntimeTasks runtimeTasks;
    private final AtomicReference<Lifecycle> lifecycle = new AtomicReference<>(Lifecycle.NEW);
    /** Whether each node decides the rows of the partitions it owns, rather than the leader every row. */
    /** Whether attempts can run in a transaction of the store's database (see {@link AttemptTransactions}). */
    private final TaskChanges taskChanges;

    private final TaskActions actions;
    private final Handback handback;

    AxEngine(AxEngineBuilder b) {
        this.store = Objects.requireNonNull(b.store, "store");
        this.router = Objects.requireNonNull(b.router, "router");
        Objects.requireNonNull(b.clock, "clock");
        // fire times are decided on the cluster's clock when there is one: this node's, corrected by its offset
        this.clusterTime =
                b.timeReference == null ? null : new ClusterTime(b.clock, b.timeReference, b.clusterTimeRefresh);
        this.clock = clusterTime != null ? clusterTime : b.clock;
        this.nodeId = Objects.requireNonNull(b.nodeId, "nodeId");
        this.shutdownAwait = b.shutdownAwait;
        this.deadLetterListeners = List.copyOf(b.deadLetterListeners);
        this.pools = new ExecutionPools(b.pools, b.defaultPool);
        this.stores = new StoreRouter(store, new InMemoryInstanceStore(b.memoryRetention));
        this.threads =
                new EngineThreads(b.timers, b.tick, clock, () -> lifecycle.get() == Lifecycle.STARTED, this::fire);
        Optional<ActivityStore> sharedActivity = store.activity();
        ActivityStore activityStore = sharedActivity.orElseGet(InMemoryActivityStore::new);
        this.activity = new ActivityRollup(activityStore, sharedActivity.isPresent(), nodeId, clock, b.activityFlush);
        List<EngineObserver> observers = new ArrayList<>(b.observers);
        observers.add(activity);
        this.insight = new Insight(observers, clock);
        this.figures = new StoreFigures(store, clock, FIGURES_REFRESH);
        List<Consumer<AxClockJumpEvent>> clockJumpListeners = List.copyOf(b.clockJumpListeners);
        this.clockGuard = new ClockGuard(
                // the local clock is watched, and the offset apart: a skewed node's first offset is no jump
                new ClockJumpDetector(b.clock, clusterTime, b.clockJumpThreshold, b.clockPause),
                clock,
                insight,
                event -> listeners.publish("clock-jump", event, clockJumpListeners));
        LeaderLease lease;
        NodeRegistry registry;
        if (b.lease != null) {
            lease = b.lease;
            registry = b.registry;
        } else if (store instanceof ClusterStore shared) {
            // engines sharing a store are one cluster: the lease lives with the rows its epoch fences
            lease = shared.leaderLease();
            registry = shared.nodeRegistry();
        } else {
            lease = new LocalLeaderLease(b.leaseClock);
            registry = new LocalNodeRegistry(b.leaseClock);
        }
        // this node's MEMORY executions: fenced by whichever lease makes it leader; the configured store only when
        // it keeps that lease itself
        stores.memory().fencedBy(() -> lease.current().epoch());
        // the store fences the leader's writes when it keeps the lease, or receives the epochs of one kept elsewhere
        boolean ownLease = store instanceof ClusterStore own
                && (own.leaderLease() == lease
                        || lease instanceof EpochMirroringLease mirrored && mirrored.fence() == own.leaderLease());
        // and the owners' writes when it keeps the partition leases in use; a store the application wraps keeps
        // neither, and gets both unfenced
        PartitionLeases partitionLeases = partitionLeases(store, registry, b.leaseClock);
        boolean ownPartitions =
                store instanceof ClusterStore own && own.partitionLeases().orElse(null) == partitionLeases;
        stores.durableFences(ownLease, ownPartitions);
        if (b.wakeUps != null) {
            this.wakeUps = b.wakeUps;
        } else {
            this.wakeUps = ownLease ? ((ClusterStore) store).wakeUps() : WakeUps.none();
        }
        this.idempotency = b.idempotency != null ? b.idempotency : new InMemoryIdempotency(clock);
        this.workflows = new Workflows(stores, clock, nodeId, tasks, this::dueNow);
        this.runtimeTasks = new RuntimeTasks(stores, clock, nodeId, router, new RuntimeTasks.Registry() {
            @Override
            public Map<String, AxTask> tasks() {
                return tasks;
            }

            @Override
            public void load(AxTask task) {
                taskRegistry.put(task);
            }

            @Override
            public void add(AxTask task) {
                taskChanges.add(task);
            }

            @Override
            public void replace(AxTask task, String reason) {
                taskChanges.replace(task, reason);
            }

            @Override
            public void remove(String name, String reason) {
                taskChanges.remove(name, reason);
            }

            @Override
            public List<String> downstream(String name) {
                return workflows.graph().downstream(name);
            }
        });
        ChangeStamps stamps = new ChangeStamps(clock);
        this.writer = new StateWriter(stores, WRITE_QUEUE_CAPACITY, nodeId, clock, stamps, "ax-writer");
        this.fireWriter = new StateWriter(stores, WRITE_QUEUE_CAPACITY, nodeId, clock, stamps, "ax-fire-writer");
        this.endWriter = new StateWriter(stores, WRITE_QUEUE_CAPACITY, nodeId, clock, stamps, "ax-end-writer");
        // starts are what someone waits for: new fires (planned ahead) and successful ends follow in their gaps
        fireWriter.giveWayTo(writer, GIVE_WAY);
        endWriter.giveWayTo(writer, GIVE_WAY);
        this.leadership = new Leadership(
                nodeId, clock, stores, taskRegistry, workflows, threads, writer, this::ended, b.reconcileEvery);
        this.membership = new Membership(
                registry,
                lease,
                b.leaseClock,
                new NodeInfo(
                        nodeId,
                        Long.toHexString(new SecureRandom().nextLong()),
                        host(),
                        clock.instant(),
                        pools.groups(),
                        pools.totalCapacity(),
                        ClusterProtocol.PARTITIONS_OWN),
                b.clusterSettings,
                leadership,
                partitionLeases,
                leadership);
        leadership.attach(membership);
        // the owner of a row's partition decides it (docs/partitioned-ownership.md)
        this.terms = DecisionTerms.partitioned(() -> membership.partitions().orElse(null), leadership::fencedOut);
        this.retention = new Retention(stores, activityStore, b.retention, clock, leadership::epoch, insight);
        writer.onRecovery(leadership::storeBack);
        fireWriter.onRecovery(leadership::storeBack);
        endWriter.onRecovery(leadership::storeBack);
        this.runner = new InstanceRunner(
                nodeId,
                clock,
                stores,
                writer,
                endWriter,
                insight,
                b.tracer,
                b.transactions,
                router,
                new InstanceRunner.ContextServices(stores, b.payloadCodec, idempotency, workflows),
                threads,
                new InstanceRunner.Outcomes() {
                    @Override
                    public boolean cutOff() {
                        return membership.isCutOff();
                    }

                    @Override
                    public void ended(Due due) {
                        AxEngine.this.ended(due);
                    }

                    @Override
                    public void released(Due due) {
                        dispatcher.release(due);
                    }

                    @Override
                    public void retry(Due due, int attempt, long epoch) {
                        dispatcher.dispatch(due, InstanceState.RETRYING, attempt, epoch);
                    }
                },
                new InstanceRunner.DeadLetters() {
                    @Override
                    public DeadLetter store(String what, java.util.function.Supplier<DeadLetter> call) {
                        return untilStored(what, call);
                    }

                    @Override
                    public void changed() {
                        deadLettersChanged();
                    }

                    @Override
                    public void publish(AxDeadLetterEvent event) {
                        publishDeadLetter(event);
                    }
                });
        this.fires = new FirePlanner(
                stores,
                clock,
                nodeId,
                b.misfireThreshold,
                b.maxCatchUp,
                threads,
                clockGuard,
                writer,
                fireWriter,
                workflows,
                leadership,
                terms,
                new FirePlanner.Tasks() {
                    @Override
                    public AxTask registered(String name) {
                        return tasks.get(name);
                    }

                    @Override
                    public boolean paused(String name) {
                        return taskRegistry.isPaused(name);
                    }

                    @Override
                    public boolean engineRuns() {
                        return isRunning();
                    }
                },
                new FirePlanner.Downstream() {
                    @Override
                    public boolean catchUpWaits(String taskName) {
                        return dispatcher.catchUpWaits(taskName);
                    }

                    @Override
                    public boolean claimGroupInFlight() {
                        return dispatcher.claimGroupInFlight();
                    }

                    @Override
                    public Set<String> dispatchFresh(List<Due> dues) {
                        return dispatcher.dispatchFresh(dues);
                    }

                    @Override
                    public boolean covers(Instant time) {
                        return prefetcher.covers(time);
                    }

                    @Override
                    public void drained(int queued) {
                        prefetcher.drained(queued);
                    }
                });
        this.taskChanges = new TaskChanges(
                router, taskRegistry, workflows, stores, clock, fires, terms, b.transactions != null, this::isRunning);
        // a series held back behind a group on its way plans no next fire that could wake the dispatch again
        writer.onOutage(() -> onDispatchThread(() -> this.fires.storeAway()));
        this.handback = new Handback(nodeId, stores, writer, runner, wakeUps);
        Claimer claimer =
                new Claimer(nodeId, writer, insight, pools, runner::handOff, handback::unstarted, terms::fencedOut);
        this.dispatcher = new Dispatcher(
                nodeId,
                clock,
                writer,
                insight,
                threads,
                pools,
                b.rejectionBackoff,
                leadership,
                terms,
                claimer,
                taskRegistry::isPaused,
                runner::isEnding,
                () -> membership.isCutOff(),
                fires);
        // with partitions no instance is assigned to another node: the look for this node's assignments only picks up
        // what its earlier run left DISPATCHED to it (claimed at recovery once its pool has room), so it need not come
        // every poll interval, where it was the largest statement of an idle node
        Duration look = b.clusterSettings.pollInterval();
        if (look.compareTo(PARTITIONED_ASSIGNMENT_LOOK) < 0) {
            look = PARTITIONED_ASSIGNMENT_LOOK;
        }
        this.actions = new TaskActions(
                taskRegistry,
                router,
                stores,
                clock,
                fires,
                terms,
                dispatcher,
                threads,
                wakeUps,
                leadership,
                this::isRunning);
        this.poller = new AssignmentPoller(nodeId, stores, tasks, pools, claimer, look, () -> membership.isCutOff());
        this.prefetcher = new Prefetcher(
                stores,
                clock,
                tasks,
                this::isPaused,
                new Prefetcher.Wheel() {
                    @Override
                    public boolean leads() {
                        return leadership.decidesRows();
                    }

                    @Override
                    public int[] partitions() {
                        return leadership.loadedPartitions();
                    }

                    @Override
                    public int queued() {
                        return fires.queued();
                    }

                    @Override
                    public boolean expects(String instanceId) {
                        return dispatcher.expects(instanceId);
                    }

                    @Override
                    public boolean enqueue(Due due) {
                        return fires.enqueue(due);
                    }
                },
                b.prefetchWindow,
                b.prefetchPage,
                b.prefetchLimit);
        leadership.attach(fires, dispatcher, prefetcher, runner, id -> claimer.isClaiming(id) || runner.holds(id));
        MemoryExecutions memory =
                new MemoryExecutions(stores, nodeId, threads.wheel(), this::deadlineOf, fires::becameDue);
        this.delayed = new DelayedTasks(
                stores,
                clock,
                nodeId,
                this::task,
                wakeUps,
                new DelayedTasks.Engine() {
                    @Override
                    public boolean acceptsWork() {
                        return AxEngine.this.acceptsWork();
                    }

                    @Override
                    public boolean decides(Due due) {
                        return terms.epochFor(due.partitionKey()) > 0;
                    }

                    @Override
                    public boolean covers(Instant time) {
                        return prefetcher.covers(time);
                    }

                    @Override
                    public void enqueue(Due due) {
                        fires.enqueue(due);
                    }

                    @Override
                    public void dequeue(String instanceId) {
                        fires.dequeue(instanceId);
                    }

                    @Override
                    public void continueAfterCancel(AxTask task, TaskInstance cancelled) {
                        fires.continueAfterCancel(task, cancelled);
                    }
                },
                memory,
                b.payloadCodec,
                b.maxPayloadSize,
                b.traceCapture);
        this.operations = new Operations(stores, nodeId, tasks, writer, delayed, dispatcher, new Operations.Engine() {
            @Override
            public boolean isRunning() {
                return AxEngine.this.isRunning();
            }

            @Override
            public void ended(Due due) {
                AxEngine.this.ended(due);
            }

            @Override
            public void deadLettersChanged() {
                AxEngine.this.deadLettersChanged();
            }

            @Override
            public void onDispatchThread(Runnable work) {
                AxEngine.this.onDispatchThread(work);
            }
        });
    }

    public static AxEngineBuilder builder() {
        return new AxEngineBuilder();
    }

    /**
     * Registers a task. Before {@link #start()} its first fire is computed at start; after, at once.
     *
     * @throws io.ax.core.InvalidTaskException when no executor accepts its type, or the executor finds it cannot run (see
     *     {@link io.ax.core.AxExecutor#check})
     * @throws AxException when the name is taken
     */
    public void register(AxTask task) {
        taskChanges.add(task);
    }

    /**
     * Starts the wheel, resumes what the store says is unfinished (see {@link Recovery}) and schedules the next
     * fire of every registered task. Idempotent.
     *
     * @throws io.ax.core.InvalidTaskException when the tasks' dependencies do not make valid workflows (see {@link
     *     WorkflowGraph}); nothing was started
     */
    public void start() {
        if (lifecycle.get() != Lifecycle.NEW) {
            return;
        }
        runtimeTasks.load(); // the tasks registered at runtime, as the store has them
        WorkflowGraph graph = WorkflowGraph.of(tasks.values());
        if (!lifecycle.compareAndSet(Lifecycle.NEW, Lifecycle.STARTED)) {
            return;
        }
        workflows.graph(graph);
        if (clusterTime != null) {
            clusterTime.start(); // the offset is known before the first fire time is decided
        }
        writer.start();
        fireWriter.start();
        endWriter.start();
        threads.start();
        try {
            membership.checkProtocol(); // before this node writes anything beside nodes of another version
            new Recovery(stores, clock, nodeId, tasks, taskRegistry.paused(), dispatcher, poller, runner, this::after)
                    .run();
            prefetcher.start();
            membership.start(); // a node alone leads at once; the takeover plans and loads before this returns
            // a node's MEMORY instances are decided by the owner of their partition on it: their fences are its own
            membership.partitions().ifPresent(owned -> stores.memory().fencedByPartitions(owned.count(), owned::epoch));
            leadership.takeUpMoves(); // with partitions: what it gained, planned and loaded before this returns
        } catch (RuntimeException e) {
            lifecycle.set(Lifecycle.STOPPED);
            if (clusterTime != null) {
                clusterTime.stop();
            }
            prefetcher.stop();
            threads.stopNow();
            writer.stop(0);
            fireWriter.stop(0);
            endWriter.stop(0);
            throw e;
        }
        leadership.start();
        runtimeTasks.start(membership.settings().heartbeat());
        retention.start();
        activity.start();
        poller.start();
        wakeUps.listen(signal -> {
            if (nodeId.equals(signal)) {
                poller.wakeUp();
            } else if (WakeUps.LEADER.equals(signal)) {
                leadership.wakeUp();
            }
        });
        clockGuard.start();
        figures.deadLetters(); // the first read, so that the first look finds a count
        LOG.log(Level.INFO, startedLine());
    }

    /**
     * The one line that tells, at start, what this engine is: node, store, its tasks by durability and its cluster
     * role; a newcomer reads in it whether AX keeps its work in memory or in the database.
     */
    private String startedLine() {
        long memoryTasks = tasks.values().stream()
                .filter(t -> t.durability() == Durability.MEMORY)
                .count();
        return "AX engine started on node " + nodeId + ": store " + store.describe() + ", " + tasks.size()
                + " task(s) (" + (tasks.size() - memoryTasks) + " PERSISTENT, " + memoryTasks + " MEMORY)"
                + ", cluster role " + membership.view().role().name().toLowerCase(java.util.Locale.ROOT)
                + membership
                        .partitions()
                        .map(p -> ", owns " + p.owned().size() + " of " + p.count() + " partitions now")
                        .orElse("")
                + (pools.virtualGroups().isEmpty() ? "" : ", virtual threads in pool(s) " + pools.virtualGroups());
    }

    /**
     * Stops firing, lets running work finish for the configured shutdown wait, then interrupts what remains.
     * Idempotent.
     */
    public void stop() {
        if (lifecycle.getAndSet(Lifecycle.STOPPED) != Lifecycle.STARTED) {
            return;
        }
        clockGuard.stop();
        if (clusterTime != null) {
            clusterTime.stop();
        }
        wakeUps.close();
        leadership.stop();
        runtimeTasks.stop();
        retention.stop();
        poller.stop();
        prefetcher.stop();
        // the steps that talk to the store are bounded: with the database gone, a stop must still end
        bounded("hand the leader lease over", membership::resign); // a standby takes over at once
        bounded("return its unstarted assignments", handback::assignments);
        threads.stop(shutdownAwait);
        // what waits in a pool's queue was acknowledged and never started: another node runs it now, not this one
        // after the shutdown wait (a claim the writer confirms later finds the pools shut and returns its instance)
        handback.unstarted(pools.stopTaking());
        pools.awaitRunning(shutdownAwait.toNanos());
        writer.stop(shutdownAwait.toMillis());
        fireWriter.stop(shutdownAwait.toMillis());
        endWriter.stop(shutdownAwait.toMillis());
        activity.stop();
        bounded("write its last activity counts", activity::flushQuietly); // after the last attempt ended
        listeners.stop(shutdownAwait.toMillis());
        bounded("leave the node registry", membership::close); // no work left here
        figures.stop();
        LOG.log(Level.INFO, "AX engine stopped on node {0}", nodeId);
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * Runs a step of the stop that needs the store on a thread of its own, for at most the cluster's lease: a store
     * that does not answer (a connection that hangs without a socket timeout) must not keep the application from
     * stopping. A step that does not end in time goes on in the background, on a daemon thread.
     */
    private void bounded(String what, Runnable step) {
        Thread thread = new Thread(
                () -> {
                    try {
                        step.run();
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, "Node {0} could not {1}: {2}", nodeId, what, e.toString());
                    }
                },
                "ax-stop");
        thread.setDaemon(true);
        thread.start();
        try {
            thread.join(membership.settings().lease().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.log(
                    Level.WARNING,
                    "Node {0} could not {1} within {2}: the store does not answer; stopping without it",
                    nodeId,
                    what,
                    membership.settings().lease());
        }
    }

    /**
     * The partitions this node takes part in: the store's when it keeps them (their owners' liveness is the store's
     * node rows, which the registry in use writes to, or stands in front of), else partitions in this process over
     * that registry. Every engine on one store must share them: partitions of its own would let each node own all.
     */
    private static PartitionLeases partitionLeases(InstanceStore store, NodeRegistry registry, AxClock clock) {
        if (store instanceof ClusterStore shared) {
            Optional<PartitionLeases> kept = shared.partitionLeases();
            if (kept.isPresent()) {
                return kept.get();
            }
        }
        return new LocalPartitionLeases(clock, registry);
    }

    private static String host() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException e) {
                host = "unknown";
            }
        }
        return host;
    }

    /**
     * Runs a task now, outside its trigger's schedule.
     *
     * @return the new instance's id
     * @throws UnknownTaskException when no task has that name
     * @throws AxException when the engine is not started
     */
    @Override
    public String triggerNow(String taskName) {
        return triggerNow(taskName, Map.of(), null);
    }

    /**
     * Runs a task now with parameters of this run laid over its own; see {@link AxScheduler#triggerNow(String,
     * Map)}.
     */
    @Override
    public String triggerNow(String taskName, Map<String, String> params) {
        return triggerNow(taskName, params, null);
    }

    /**
     * Like {@link #triggerNow(String)}, asked by an operator: the new instance's audit trail and one INFO line name
     * who asked.
     *
     * @param by who asked; null when nobody in particular (the application itself)
     */
    public String triggerNow(String taskName, Operator by) {
        return triggerNow(taskName, Map.of(), by);
    }

    /**
     * Runs a task now with parameters of this run (see {@link AxScheduler#triggerNow(String, Map)}), asked by an
     * operator (see {@link #triggerNow(String, Operator)}).
     *
     * @param by who asked; null when nobody in particular (the application itself)
     */
    public String triggerNow(String taskName, Map<String, String> params, Operator by) {
        return actions.runNow(taskName, params, by);
    }

    @Override
    public List<String> scheduleAll(List<ScheduleRequest> requests) {
        Objects.requireNonNull(requests, "requests");
        return delayed.scheduleAll(requests);
    }

    @Override
    public boolean cancel(String instanceId) {
        Objects.requireNonNull(instanceId, "instanceId");
        return delayed.cancel(instanceId);
    }

    @Override
    public boolean reschedule(String instanceId, Instant newTime) {
        Objects.requireNonNull(instanceId, "instanceId");
        return delayed.reschedule(instanceId, newTime);
    }

    @Override
    public Optional<InstanceDetails> find(String instanceId) {
        Objects.requireNonNull(instanceId, "instanceId");
        return delayed.find(instanceId);
    }

    /**
     * Pauses a task on every node (within a heartbeat): its pending trigger fires are cancelled and, while it is
     * paused, its fire times create nothing; its delayed executions wait in the store. Audited on the cancelled
     * fire, logged once.
     */
    @Override
    public void pause(String taskName) {
        pause(taskName, null);
    }

    /**
     * Like {@link #pause(String)}, asked by an operator, who is named in the audit trail of the cancelled fires and
     * in the log line.
     *
     * @param by who asked; null when nobody in particular (the application itself)
     */
    public void pause(String taskName, Operator by) {
        actions.pause(taskName, by);
    }

    /** Resumes a paused task on every node (within a heartbeat): its series goes on from now. */
    @Override
    public void resume(String taskName) {
        resume(taskName, null);
    }

    /**
     * Like {@link #resume(String)}, asked by an operator, who is named in the log line and, when this node leads, in
     * the audit trail of the series' next fire.
     *
     * @param by who asked; null when nobody in particular (the application itself)
     */
    public void resume(String taskName, Operator by) {
        actions.resume(taskName, by);
    }

    /** Whether a task is paused. */
    public boolean isPaused(String taskName) {
        return taskRegistry.isPaused(taskName);
    }

    /** The task with that name, if registered; the name must not be null. */
    public Optional<AxTask> task(String name) {
        return Optional.ofNullable(tasks.get(Objects.requireNonNull(name, "taskName")));
    }

    /** Every registered task. */
    public Collection<AxTask> tasks() {
        return List.copyOf(tasks.values());
    }

    /**
     * The configured store, holding PERSISTENT instances, their audit trail and dead letters. MEMORY instances are
     * not in it: {@link #find} finds every instance.
     */
    public InstanceStore store() {
        return store;
    }

    /** This node's id, as written into the audit log. */
    public String nodeId() {
        return nodeId;
    }

    /** Entries in the wheel: fire batches, retries waiting for their back-off, and running attempts' timeouts. */
    public int wheelSize() {
        return threads.timers();
    }

    /** Instances executing right now on this node. */
    public int executing() {
        return pools.active();
    }

    /**
     * Whether no work is in this engine's hands at this moment: nothing on its dispatch or outcomes thread, no attempt
     * running or waiting for a pool thread, no state change waiting to be written, and nothing the leader or the
     * prefetch has been asked to do (a workflow's next step, a fixed-delay series' next fire, a load of the window).
     * A moment's answer, read part by part: work moving from one part to the next may be missed, so a caller that
     * waits for the engine to settle (a test) asks again a little later before it believes it. Work due later, in the
     * wheel or the store, does not count.
     */
    public boolean isQuiet() {
        return busyWith().isEmpty();
    }

    /**
     * The parts of this engine that have work at this moment, by name ({@code dispatch}, {@code pools}, {@code
     * writer}, {@code fire-writer}, {@code end-writer}, {@code leader}, {@code prefetch}); empty when it is quiet
     * (see {@link #isQuiet()}).
     */
    public List<String> busyWith() {
        List<String> busy = new ArrayList<>(0);
        if (!threads.idle()) {
            busy.add("dispatch");
        }
        if (!pools.idle()) {
            busy.add("pools");
        }
        if (!writer.idle()) {
            busy.add("writer");
        }
        if (!fireWriter.idle()) {
            busy.add("fire-writer");
        }
        if (!endWriter.idle()) {
            busy.add("end-writer");
        }
        if (!leadership.idle()) {
            busy.add("leader");
        }
        if (!prefetcher.idle()) {
            busy.add("prefetch");
        }
        return busy;
    }

    /** Whether the engine has started and not stopped. */
    public boolean isRunning() {
        return lifecycle.get() == Lifecycle.STARTED;
    }

    // ---- tasks registered at runtime ----------------------------------------------------------------------

    @Override
    public TaskDefinition register(TaskDefinition definition) {
        return runtimeTasks.register(Objects.requireNonNull(definition, "definition"));
    }

    @Override
    public TaskDefinition update(TaskDefinition definition) {
        return runtimeTasks.update(Objects.requireNonNull(definition, "definition"));
    }

    @Override
    public void unregister(String taskName) {
        runtimeTasks.unregister(Objects.requireNonNull(taskName, "taskName"));
    }

    @Override
    public List<TaskDefinition> list() {
        return runtimeTasks.list();
    }

    /** A task registered at runtime joins this node's tasks; its first fire is planned if this node leads. */
    // ---- workflows ----------------------------------------------------------------------------------------

    /** The workflows among the registered tasks: each one's root, tasks and edges. */
    public WorkflowGraph workflowGraph() {
        return workflows.graph();
    }

    /**
     * The newest runs of the workflow that {@code task} belongs to, newest first, as the store has them; empty when
     * it belongs to none.
     */
    public List<WorkflowRun> recentRuns(String task, int limit) {
        return workflows.recentRuns(Objects.requireNonNull(task, "task"), limit);
    }

    // ---- operations ---------------------------------------------------------------------------------------

    /**
     * Cancels, for an operator, an instance that waits: for its time (SCHEDULED, as {@link #cancel} does) or for its
     * next attempt (RETRYING). A series goes on with its next fire. Unlike {@link #cancel}, says why it cannot.
     *
     * @return the instance, now CANCELLED, with its audit trail
     * @throws UnknownInstanceException when no store holds it
     * @throws IllegalTransitionException when it is in another state (running, finished)
     * @throws AxException when it changed state while being cancelled
     */
    public InstanceDetails cancelWaiting(String instanceId) {
        return operations.cancelWaiting(instanceId, null);
    }

    /**
     * Like {@link #cancelWaiting(String)}, asked by an operator, who is named in the audit trail and the log line.
     *
     * @param by who asked; null when nobody in particular
     */
    public InstanceDetails cancelWaiting(String instanceId, Operator by) {
        return operations.cancelWaiting(instanceId, by);
    }

    /**
     * Replays a DEAD instance: a new cycle of attempts of the same instance, starting at once with attempt 1 and
     * the task's retries afresh; audited as "replayed by operator". Its dead letter is removed; should it die again
     * it leaves a new one.
     *
     * @return the instance, now RETRYING, with its audit trail
     * @throws UnknownInstanceException when no store holds it
     * @throws UnknownTaskException when its task is not registered on this node
     * @throws IllegalTransitionException when it is not DEAD
     * @throws AxException when the engine is not running, or the instance changed state meanwhile
     */
    public InstanceDetails replay(String instanceId) {
        return operations.replay(instanceId, null);
    }

    /**
     * Like {@link #replay(String)}, asked by an operator, who is named in the audit trail and the log line.
     *
     * @param by who asked; null when nobody in particular
     */
    public InstanceDetails replay(String instanceId, Operator by) {
        return operations.replay(instanceId, by);
    }

    // ---- insight ------------------------------------------------------------------------------------------

    /**
     * The instances that meet an operator's search, newest scheduled time first, from every store (MEMORY ones
     * too); see {@link InstanceStore#search}.
     */
    public List<TaskInstance> search(InstanceQuery query) {
        return stores.search(Objects.requireNonNull(query, "query"));
    }

    /** A task's newest instances, newest scheduled time first, from every store (MEMORY ones too). */
    public List<TaskInstance> instancesOf(String taskName, int limit) {
        return stores.findByTask(taskName, limit);
    }

    /**
     * What the engines ran over the last {@code window} (at most a day), of one task or of all: fires, outcomes, dead
     * letters and lateness, in buckets of {@code bucket} (a whole number of minutes), the last bucket ending with the
     * current minute. Read from the per-minute rollup every node writes to the store ({@link Activity#cluster}
     * says whether it holds every node's counts); this node's own counts are its freshest, the other nodes' at most
     * their flush interval old. One query of a few rows per node and minute, never a scan of the instances.
     *
     * @param task a task's name, or null for all tasks
     * @throws IllegalArgumentException when the window or the bucket is not a positive whole number of minutes, the
     *     window is longer than a day, or the bucket does not divide it
     */
    public Activity activity(String task, Duration window, Duration bucket) {
        long windowMinutes = wholeMinutes(window, "window");
        long bucketMinutes = wholeMinutes(bucket, "bucket");
        if (windowMinutes > MAX_ACTIVITY_WINDOW.toMinutes() || windowMinutes % bucketMinutes != 0) {
            throw new IllegalArgumentException("the window must be at most " + MAX_ACTIVITY_WINDOW.toMinutes()
                    + " minutes and a multiple of the bucket, was " + windowMinutes + " and " + bucketMinutes);
        }
        long now = ActivityRollup.minuteOf(clock.instant());
        Instant from = Instant.ofEpochSecond((now - windowMinutes + 1) * 60);
        Instant to = Instant.ofEpochSecond((now + 1) * 60);
        return activity.read(task, from, to, (int) bucketMinutes);
    }

    /** The longest window {@link #activity} reads. */
    public static final Duration MAX_ACTIVITY_WINDOW = Duration.ofDays(1);

    private static long wholeMinutes(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero() || d.toSeconds() % 60 != 0 || d.toNanosPart() != 0) {
            throw new IllegalArgumentException(what + " must be a positive whole number of minutes, was " + d);
        }
        return d.toMinutes();
    }

    /** Instances due but not started on this node, per pool, and how long the oldest has waited. No query. */
    public Backlog backlog() {
        return insight.backlog();
    }

    /**
     * This node's offset from the cluster's reference clock (Redis or the database), which fire times are decided
     * on; empty when the engine's clock is taken as it is (no reference, or a clock of the application's own).
     */
    public Optional<ClusterTimeStatus> clusterTime() {
        return clusterTime == null ? Optional.empty() : Optional.of(clusterTime.status());
    }

    /** What the clock-jump guard has seen, and whether trigger decisions wait now. */
    public ClockStatus clockStatus() {
        return clockGuard.status();
    }

    /** Who makes trigger decisions, as this node sees it. */
    public ClusterView cluster() {
        return membership.view();
    }

    /**
     * This node's contact with the cluster store when it is broken: since when its heartbeat has not gone through
     * (longer than two heartbeats), why, and whether it is so long that the other nodes may take it for dead; empty
     * while it reaches the store. Answers from what the engine holds, never by asking the store, so it answers at
     * once during an outage.
     */
    public Optional<Membership.StoreContact> storeContact() {
        return membership.unreached();
    }

    /**
     * The partitions this node owns, with their epochs, how many each live node owns and the moves since the start;
     * empty before the engine started. Answers from what the node holds, never by asking the store.
     */
    public Optional<PartitionTerms> partitions() {
        return membership.partitions();
    }

    /** How long no leader has been known to this node; zero while one is. */
    public Duration leaderlessFor() {
        return membership.leaderlessFor();
    }

    /** The cluster's timing: heartbeat, lease, acknowledgement timeout, poll interval. */
    public ClusterSettings clusterSettings() {
        return membership.settings();
    }

    /** Instances this node, as leader, took back from their node: by reason ({@code ack-timeout}, {@code node-gone}). */
    public Map<String, Long> reassigned() {
        return leadership.reassigned();
    }

    /**
     * Whether the store refuses this node's writes right now: since when and why. Meanwhile AX keeps its wheel,
     * starts no PERSISTENT work it cannot record, and retries its writes with back-off; once they land it resumes
     * by itself.
     */
    public Optional<StoreOutage> storeOutage() {
        return writer.outage()
                .or(fireWriter::outage)
                .or(endWriter::outage)
                .map(o -> new StoreOutage(o.since(), o.cause()));
    }

    /** Series the leader's reconciliation found stopped and gave their next fire again, since this node started. */
    public long repairedSeries() {
        return leadership.repairedSeries();
    }

    /**
     * How many dead letters the store held when last read, and when: read again in the background when older than a
     * few seconds (or once one was written or removed), never on the caller's thread, so it answers at once during
     * an outage; empty until the first read answered.
     */
    public Optional<DeadLetterCount> deadLetterCount() {
        return figures.deadLetters();
    }

    /**
     * Whether the store does not answer reads: since when and why (a failure, or a read that hangs), as the
     * background reads of {@link #deadLetterCount} found; empty while they answer. Never waits for the store.
     */
    public Optional<StoreOutage> storeUnanswered() {
        return figures.unanswered().map(u -> new StoreOutage(u.since(), u.cause()));
    }

    /** A dead letter was written or removed here: its count is read again at the next look. */
    void deadLettersChanged() {
        figures.changed();
    }

    /** Events the application's listeners fell too far behind to be told. */
    public long droppedEvents() {
        return listeners.dropped();
    }

    /** How often this node became leader since it started. */
    public long failovers() {
        return leadership.failovers();
    }

    // ---- shared with the engine's parts ---------------------------------------------------------------------------

    /** Runs {@code work} on the dispatch thread after {@code delay}; returns the timer handle, -1 once stopped. */
    long after(Duration delay, Runnable work) {
        return threads.after(delay, work);
    }

    /** The wheel deadline of a wall-clock time (see {@link ClockGuard#deadlineOf}). */
    long deadlineOf(Instant time) {
        return clockGuard.deadlineOf(time);
    }

    long at(long deadlineNanos, Runnable work) {
        return threads.at(deadlineNanos, work);
    }

    /**
     * Runs a store call that must not be lost (a dead letter), trying again with back-off while the store is away
     * and the engine runs; blocks the calling thread (a worker's, or {@code ax-outcomes}), never the dispatch
     * thread. Gives up when the engine stops, or when the store keeps refusing this call while it takes other
     * writes.
     *
     * @return the call's result; null when given up
     */
    <T> T untilStored(String what, java.util.function.Supplier<T> call) {
        long backoffMillis = StateWriter.FIRST_BACKOFF.toMillis();
        int refusedWhileUp = 0;
        while (true) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (storeAnswers() && ++refusedWhileUp >= StateWriter.POISON_AFTER
                        || lifecycle.get() != Lifecycle.STARTED) {
                    LOG.log(Level.ERROR, "AX could not store {0}; given up: {1}", what, e.toString());
                    return null;
                }
                LOG.log(Level.DEBUG, "AX could not store {0} yet; retrying: {1}", what, e.toString());
                try {
                    Thread.sleep(backoffMillis);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return null;
                }
                backoffMillis = Math.min(backoffMillis * 2, StateWriter.MAX_BACKOFF.toMillis());
            }
        }
    }

    /** Whether the store answers a read: it is up, whatever it refuses. */
    private boolean storeAnswers() {
        try {
            stores.find("ax-probe");
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Tells the dead-letter listeners, on their own thread. */
    void publishDeadLetter(AxDeadLetterEvent event) {
        listeners.publish("dead-letter", event, deadLetterListeners);
    }

    /**
     * An instance reached a final state: a waiting fire of its task may start, a fixed-delay series goes on, a
     * workflow run goes on.
     */
    void ended(Due due) {
        dispatcher.release(due);
        fires.ended(due);
        if (workflows.hasDownstream(due.task().name())) {
            leadership.advanceRun(due.instanceId());
        }
    }

    /** Whether scheduled work is still accepted: before start and while running. */
    boolean acceptsWork() {
        return lifecycle.get() != Lifecycle.STOPPED;
    }

    /** Compares the clocks now, as the clock watch does every second. */
    void checkClock() {
        clockGuard.check();
    }

    Leadership leadership() {
        return leadership;
    }

    Dispatcher dispatcher() {
        return dispatcher;
    }

    /** Puts work due now into the wheel, which hands it to the dispatch at once. */
    private void dueNow(Due due) {
        fires.enqueue(due);
    }

    /** Hands work to the dispatch thread. */
    void onDispatchThread(Runnable work) {
        threads.onDispatchThread(work);
    }

    AxClock clock() {
        return clock;
    }

    /** On the dispatch thread: a MEMORY delayed task's entry in the wheel came due. */
    private void fire(MemoryTask task) {
        delayed.fire(task);
    }
}
