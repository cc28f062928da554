package io.ax.core.engine;

import io.ax.core.AxClockJumpEvent;
import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxIdempotency;
import io.ax.core.AxTask;
import io.ax.core.DeadLetter;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.clock.AxClock;
import io.ax.core.clock.ClockJumpDetector;
import io.ax.core.clock.ClusterTime;
import io.ax.core.cluster.ClusterProtocol;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.EpochMirroringLease;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.LocalLeaderLease;
import io.ax.core.cluster.LocalNodeRegistry;
import io.ax.core.cluster.LocalPartitionLeases;
import io.ax.core.cluster.Membership;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.PartitionLeases;
import io.ax.core.cluster.StoreHistory;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.definitions.RuntimeTasks;
import io.ax.core.engine.definitions.TaskRegistry;
import io.ax.core.engine.insight.ActivityRollup;
import io.ax.core.engine.insight.Insight;
import io.ax.core.engine.insight.Listeners;
import io.ax.core.engine.insight.StoreFigures;
import io.ax.core.engine.ownership.Handback;
import io.ax.core.engine.ownership.Leadership;
import io.ax.core.engine.ownership.Retention;
import io.ax.core.engine.planning.ClockGuard;
import io.ax.core.engine.planning.FirePlanner;
import io.ax.core.engine.scheduling.DelayedTasks;
import io.ax.core.engine.scheduling.MemoryExecutions;
import io.ax.core.engine.scheduling.Prefetcher;
import io.ax.core.engine.terms.DecisionTerms;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.threads.MemoryTask;
import io.ax.core.engine.work.Claimer;
import io.ax.core.engine.work.Dispatcher;
import io.ax.core.engine.work.ExecutionPools;
import io.ax.core.engine.work.InstanceRunner;
import io.ax.core.engine.work.LimitedClaims;
import io.ax.core.engine.workflows.Workflows;
import io.ax.core.engine.writes.ChangeStamps;
import io.ax.core.engine.writes.RecentCommits;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.engine.writes.StoreRouter;
import io.ax.core.logging.Loggers;
import io.ax.core.store.ActivityStore;
import io.ax.core.store.InMemoryActivityStore;
import io.ax.core.store.InMemoryIdempotency;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.Permits;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The parts of one engine, built and wired together from the builder's settings: the facade ({@link AxEngine}) and
 * its start and stop reach the parts through it, and no part holds it. Each part is given what it uses; where a part
 * needs something of a part built after it, it is given a small interface of its own, implemented here.
 *
 * <p>Why it is long: it is the one place the parts meet (about thirty of them, with their adapters).
 */
final class EngineParts {

    private static final System.Logger LOG = Loggers.get(AxEngine.class.getName());
    private static final int WRITE_QUEUE_CAPACITY = 100_000;
    /**
     * How long the writers of new fires and of successful ends wait at most, before each group, for the writer of
     * starts to be idle: long enough to let a large group of starts go first, short enough that a series planned a
     * second ahead still has its next fire in the store in time.
     */
    private static final Duration GIVE_WAY = Duration.ofMillis(250);
    /**
     * The most claims in the first group of a wave: enough to fill the pools of a node at once, small enough to commit
     * in a few milliseconds (see {@link StateWriter#startSmall}).
     */
    private static final int CLAIMS_FIRST = 100;

    /** The most instances whose last committed change a node remembers, to tell which a failover lost. */
    private static final int RECENT_COMMITS = 20_000;
    /** How long a committed change is remembered: longer than any replication lag worth a failover. */
    private static final Duration RECENT_WINDOW = Duration.ofMinutes(2);

    /** How old the store's figures (the dead letters) may be before a look at them reads them again. */
    private static final Duration FIGURES_REFRESH = Duration.ofSeconds(1);

    /** Where the engine is in its life: changed by {@link EngineLifecycle} only, read by the parts. */
    enum Lifecycle {
        NEW,
        STARTED,
        STOPPED
    }

    final InstanceStore store;
    final ExecutorRouter router;
    final ExecutionPools pools;
    final AxClock clock;
    final String nodeId;
    final Duration shutdownAwait;
    private final List<Consumer<AxDeadLetterEvent>> deadLetterListeners;
    final Listeners listeners = new Listeners();

    /** The registered tasks and the paused ones, changed only through it; the field below is its view of the first. */
    final TaskRegistry taskRegistry = new TaskRegistry();

    final Map<String, AxTask> tasks = taskRegistry.tasks();
    final StoreRouter stores;
    /** The wheel, the dispatch thread and the outcomes thread. */
    final EngineThreads threads;

    final FirePlanner fires;
    final Dispatcher dispatcher;
    final InstanceRunner runner;
    final StateWriter writer;
    /**
     * The writer of new fires (a series' next ones): a connection of their own, beside the state changes', so that
     * planning ahead and recording outcomes go on side by side. New fires are new rows: no order to keep with the
     * changes of other instances.
     */
    final StateWriter fireWriter;
    /**
     * Writes the successful ends of attempts, apart from {@link #writer}: a group of starts never queues behind the
     * ends of the group before it. An end is handed in only after its start was confirmed, so the two never
     * overtake each other for one instance.
     */
    final StateWriter endWriter;

    final Insight insight;
    /** This node's per-minute counts, written to the store for the cluster's charts. */
    final ActivityRollup activity;
    /** The dead letters, read in the background for health and insight. */
    final StoreFigures figures;

    final ClockGuard clockGuard;
    final Operations operations;
    final Membership membership;
    /** What this node does when its store went back in time. */
    final StoreRegressions storeRegressions;
    /** Null without a folder for the recent commits of nodes that stop. */
    final DepartedCommits departedCommits;

    final Leadership leadership;
    /** At which epoch this node decides for a row: the epoch at which it owns the row's partition. */
    private final DecisionTerms terms;

    final Retention retention;
    final WakeUps wakeUps;
    private final AxIdempotency idempotency;
    final ClusterTime clusterTime; // null: the clock is taken as it is
    final Prefetcher prefetcher;
    final DelayedTasks delayed;
    final Workflows workflows;
    final RuntimeTasks runtimeTasks;
    final AtomicReference<Lifecycle> lifecycle = new AtomicReference<>(Lifecycle.NEW);
    final TaskChanges taskChanges;

    final TaskActions actions;
    final Handback handback;
    /** The claims of attempts that need permits of cluster-wide limits. */
    final LimitedClaims limited;

    EngineParts(AxEngineBuilder b) {
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
        this.figures = new StoreFigures(store, clock, FIGURES_REFRESH, this::ownedPartitions);
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
        // never longer than finished rows are kept: a row that retention deleted is no row the store lost
        Duration remembered = b.retention.enabled() && b.retention.finished().compareTo(RECENT_WINDOW) < 0
                ? b.retention.finished()
                : RECENT_WINDOW;
        RecentCommits recentCommits = new RecentCommits(RECENT_COMMITS, remembered, b.leaseClock::nanoTime);
        stores.recordCommits(recentCommits);
        writer.recordCommits(recentCommits);
        fireWriter.recordCommits(recentCommits);
        endWriter.recordCommits(recentCommits);
        ClusterSettings cluster = b.clusterSettings;
        this.storeRegressions = new StoreRegressions(
                nodeId,
                clock,
                stores,
                recentCommits,
                // long enough for the others to see its partitions free and take them, and to notice for themselves
                cluster.lease().plus(cluster.heartbeat().multipliedBy(2)),
                insight,
                listeners,
                b.storeRegressionListeners);
        this.departedCommits = b.recentCommitsFolder == null
                ? null
                : new DepartedCommits(
                        nodeId,
                        new io.ax.core.engine.writes.RecentCommitsFolder(b.recentCommitsFolder),
                        recentCommits,
                        stores,
                        storeRegressions,
                        clock,
                        b.leaseClock::nanoTime,
                        remembered,
                        cluster.heartbeat(),
                        // unwritten for as long as the others wait before they take a silent node for dead
                        cluster.lease().plus(cluster.heartbeat()));
        // starts are what someone waits for: new fires (planned ahead) and successful ends follow in their gaps
        writer.startSmall(CLAIMS_FIRST);
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
        if (store instanceof ClusterStore shared && shared.nodeRegistry() == registry) {
            // the store that keeps the registry and the epochs is the one whose history a node watches
            membership.watch(
                    new StoreHistory(storeRegressions), shared.storeIdentity().orElse(null));
        }
        storeRegressions.attach(membership);
        // the owner of a row's partition decides it (docs/design.md, "The partition protocol")
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
                    public long cutOffs() {
                        return membership.cutOffs();
                    }

                    @Override
                    public void ended(Due due) {
                        EngineParts.this.ended(due);
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
                },
                new io.ax.core.engine.work.Takeovers(b.takeovers));
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
        Permits permits = b.permits != null
                ? b.permits
                : store instanceof ClusterStore shared ? shared.permits().orElse(null) : null;
        if (permits == null) {
            b.pools.forEach((group, pool) -> {
                if (pool.limitedAcrossTheCluster()) {
                    throw new IllegalArgumentException("pool '" + group + "' has a cluster limit or rate, kept with"
                            + " permits in the store, and this engine's store keeps none (the JDBC and in-memory stores"
                            + " do)");
                }
            });
        }
        this.taskChanges = new TaskChanges(
                router,
                taskRegistry,
                workflows,
                stores,
                clock,
                fires,
                terms,
                b.transactions != null,
                permits != null,
                this::isRunning);
        // a series held back behind a group on its way plans no next fire that could wake the dispatch again
        writer.onOutage(() -> onDispatchThread(() -> this.fires.storeAway()));
        this.handback = new Handback(nodeId, writer, runner, wakeUps);
        Claimer claimer =
                new Claimer(nodeId, writer, insight, pools, runner::handOff, handback::unstarted, terms::fencedOut);
        this.limited = new LimitedClaims(
                permits,
                group -> b.pools.getOrDefault(group, b.defaultPool),
                stores::payload,
                claimer,
                pools,
                threads,
                terms::fencedOut,
                recentCommits::changed);
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
                limited,
                taskRegistry::isPaused,
                runner,
                () -> membership.isCutOff(),
                fires);
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
        this.prefetcher = new Prefetcher(
                stores,
                clock,
                tasks,
                taskRegistry::isPaused,
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

                    @Override
                    public void dispatchAgain(Due due) {
                        if (limited.waits(due.instanceId())) {
                            return; // its turn comes with a permit: LimitedClaims tries its waiters again and again
                        }
                        fires.dequeue(due.instanceId());
                        dispatcher.forgetExpected(due.instanceId());
                        fires.enqueue(due);
                    }
                },
                b.prefetchWindow,
                b.prefetchPage,
                b.prefetchLimit);
        leadership.attach(
                fires,
                dispatcher,
                prefetcher,
                runner,
                id -> claimer.isClaiming(id) || runner.holds(id),
                () -> writer.isFailing() || endWriter.isFailing() || fireWriter.isFailing(),
                () -> {
                    java.util.function.BooleanSupplier states = writer.barrier();
                    java.util.function.BooleanSupplier ends = endWriter.barrier();
                    java.util.function.BooleanSupplier newFires = fireWriter.barrier();
                    return () -> states.getAsBoolean() && ends.getAsBoolean() && newFires.getAsBoolean();
                },
                recentCommits::succeeded);
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
                        return EngineParts.this.acceptsWork();
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
                return EngineParts.this.isRunning();
            }

            @Override
            public void ended(Due due) {
                EngineParts.this.ended(due);
            }

            @Override
            public void deadLettersChanged() {
                EngineParts.this.deadLettersChanged();
            }

            @Override
            public void onDispatchThread(Runnable work) {
                EngineParts.this.onDispatchThread(work);
            }
        });
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

    /** The partitions this node owns now; null before it started (its lag is then the store's). */
    private int[] ownedPartitions() {
        return membership == null
                ? null
                : membership
                        .partitions()
                        .map(t -> t.owned().keySet().stream()
                                .mapToInt(Integer::intValue)
                                .toArray())
                        .orElse(null);
    }

    /** A dead letter was written or removed here: its count is read again at the next look. */
    void deadLettersChanged() {
        figures.changed();
    }

    /** Whether the engine has started and not stopped. */
    boolean isRunning() {
        return lifecycle.get() == Lifecycle.STARTED;
    }

    /** The task with that name, if registered. */
    Optional<AxTask> task(String name) {
        return Optional.ofNullable(tasks.get(name));
    }

    /** The wheel deadline of a wall-clock time (see {@link io.ax.core.engine.planning.ClockGuard#deadlineOf}). */
    long deadlineOf(Instant time) {
        return clockGuard.deadlineOf(time);
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

    /** Puts work due now into the wheel, which hands it to the dispatch at once. */
    private void dueNow(Due due) {
        fires.enqueue(due);
    }

    /** Hands work to the dispatch thread. */
    void onDispatchThread(Runnable work) {
        threads.onDispatchThread(work);
    }

    /** On the dispatch thread: a MEMORY delayed task's entry in the wheel came due. */
    private void fire(MemoryTask task) {
        delayed.fire(task);
    }
}
