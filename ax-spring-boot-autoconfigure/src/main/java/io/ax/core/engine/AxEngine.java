package io.ax.core.engine;

import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.DuplicateInstanceException;
import io.ax.core.InstanceState;
import io.ax.core.MisfirePolicy;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.UnknownTaskException;
import io.ax.core.clock.AxClock;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.wheel.WheelTimer;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The single-node engine: computes fire times, keeps what is due soon in a hierarchical time wheel, dispatches due
 * instances to bounded pools, enforces timeouts, retries with back-off and dead-letters what never succeeds. Every
 * state change goes through the store, conditionally, along the arrows of {@link InstanceState}.
 *
 * <p>Threads: one wheel thread ({@code ax-wheel}) that only moves due work on; one dispatch thread
 * ({@code ax-dispatch}) that writes the state changes of fires, retries and timeouts and hands instances to the
 * pools; and the pools' workers ({@code ax-<group>-<n>}). Thread-safe. Build one with {@link #builder}.
 */
public final class AxEngine implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(AxEngine.class.getName());
    private static final int DISPATCH_QUEUE_CAPACITY = 65_536;
    private static final int WRITE_QUEUE_CAPACITY = 100_000;
    private static final Duration HAND_OFF_BACKOFF = Duration.ofMillis(10);

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
    private final Duration rejectionBackoff;
    private final Duration misfireThreshold;
    private final int maxCatchUp;
    private final List<Consumer<AxDeadLetterEvent>> deadLetterListeners;

    private final Map<String, AxTask> tasks = new ConcurrentHashMap<>();
    /** Task name -> the instance in flight, for tasks that must not overlap (concurrent = false). */
    private final Map<String, String> inFlight = new ConcurrentHashMap<>();
    /** Task name -> catch-up instances waiting for the in-flight one of a non-overlapping task to end. */
    private final Map<String, Queue<Due>> waiting = new ConcurrentHashMap<>();
    /** Instances that fell due and wait for the next drain; touched only on the dispatch thread. */
    private final List<Due> ready = new ArrayList<>();

    private final TriggerGroups groups = new TriggerGroups();
    private final WheelTimer<Runnable> wheel;
    private final ThreadPoolExecutor dispatcher;
    private final InstanceRunner runner;
    private final StateWriter writer;
    private final AtomicReference<Lifecycle> lifecycle = new AtomicReference<>(Lifecycle.NEW);

    private AxEngine(Builder b) {
        this.store = Objects.requireNonNull(b.store, "store");
        this.router = Objects.requireNonNull(b.router, "router");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.nodeId = Objects.requireNonNull(b.nodeId, "nodeId");
        this.shutdownAwait = b.shutdownAwait;
        this.rejectionBackoff = b.rejectionBackoff;
        this.misfireThreshold = b.misfireThreshold;
        this.maxCatchUp = b.maxCatchUp;
        this.deadLetterListeners = List.copyOf(b.deadLetterListeners);
        this.pools = new ExecutionPools(b.pools, b.defaultPool);
        this.wheel = new WheelTimer<>(b.tick, clock::nanoTime, this::handOff, "ax-wheel");
        this.dispatcher = new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(DISPATCH_QUEUE_CAPACITY),
                new NamedThreadFactory("ax-dispatch-", true),
                new ThreadPoolExecutor.AbortPolicy());
        this.runner = new InstanceRunner(this);
        this.writer = new StateWriter(store, WRITE_QUEUE_CAPACITY);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Registers a task. Before {@link #start()} its first fire is computed at start; after, at once.
     *
     * @throws AxException when the name is taken or no executor accepts its type
     */
    public void register(AxTask task) {
        Objects.requireNonNull(task, "task");
        router.route(task.type());
        if (tasks.putIfAbsent(task.name(), task) != null) {
            throw new AxException("A task named '" + task.name() + "' is already registered");
        }
        if (lifecycle.get() == Lifecycle.STARTED) {
            store.saveTask(task.name(), task.trigger().describe(), clock.instant());
            List<Pending> first = new ArrayList<>();
            planFirst(task, first);
            scheduleFires(first);
        }
    }

    /**
     * Starts the wheel, resumes what the store says is unfinished (see {@link Recovery}) and schedules the next
     * fire of every registered task. Idempotent.
     */
    public void start() {
        if (!lifecycle.compareAndSet(Lifecycle.NEW, Lifecycle.STARTED)) {
            return;
        }
        writer.start();
        wheel.start();
        new Recovery(this).run();
        LOG.log(Level.INFO, "AX engine started on node {0} with {1} task(s)", nodeId, tasks.size());
    }

    /**
     * Stops firing, lets running work finish for the configured shutdown wait, then interrupts what remains.
     * Idempotent.
     */
    public void stop() {
        if (lifecycle.getAndSet(Lifecycle.STOPPED) != Lifecycle.STARTED) {
            return;
        }
        wheel.close();
        dispatcher.shutdown();
        try {
            if (!dispatcher.awaitTermination(shutdownAwait.toMillis(), TimeUnit.MILLISECONDS)) {
                dispatcher.shutdownNow();
            }
        } catch (InterruptedException e) {
            dispatcher.shutdownNow();
            Thread.currentThread().interrupt();
        }
        pools.shutdown(shutdownAwait.toNanos());
        writer.stop(shutdownAwait.toMillis());
        LOG.log(Level.INFO, "AX engine stopped on node {0}", nodeId);
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * Runs a task now, outside its trigger's schedule.
     *
     * @return the new instance's id
     * @throws UnknownTaskException when no task has that name
     * @throws AxException when the engine is not started
     */
    public String triggerNow(String taskName) {
        AxTask task = task(taskName).orElseThrow(() -> new UnknownTaskException(taskName));
        if (lifecycle.get() != Lifecycle.STARTED) {
            throw new AxException("The AX engine is not running; cannot trigger '" + taskName + "'");
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        for (int bump = 0; bump < 1_000; bump++) {
            Instant at = now.plus(bump, ChronoUnit.MICROS);
            List<Due> written = write(List.of(new Pending(task, at, Due.Origin.ON_DEMAND, "triggered on demand")));
            if (!written.isEmpty()) {
                Due due = written.get(0);
                handOff(() -> dispatchFresh(due));
                return due.instanceId();
            }
        }
        throw new DuplicateInstanceException(task.name(), now);
    }

    /** The task with that name, if registered. */
    public Optional<AxTask> task(String name) {
        return Optional.ofNullable(tasks.get(name));
    }

    /** Every registered task. */
    public Collection<AxTask> tasks() {
        return List.copyOf(tasks.values());
    }

    /** The store holding instances, their audit trail and dead letters. */
    public InstanceStore store() {
        return store;
    }

    /** This node's id, as written into the audit log. */
    public String nodeId() {
        return nodeId;
    }

    /** Entries in the wheel: fire batches, retries waiting for their back-off, and running attempts' timeouts. */
    public int wheelSize() {
        return wheel.size();
    }

    /** Instances executing right now on this node. */
    public int executing() {
        return pools.active();
    }

    /** Whether the engine has started and not stopped. */
    public boolean isRunning() {
        return lifecycle.get() == Lifecycle.STARTED;
    }

    // ---- firing -------------------------------------------------------------------------------------------

    /** A fire to write: series fires move the task's next fire time; others (catch-ups, on demand) do not. */
    record Pending(AxTask task, Instant time, Due.Origin origin, String reason) {}

    /** Plans the first fire of a task's series from now. */
    void planFirst(AxTask task, List<Pending> out) {
        task.trigger()
                .firstFireTime(clock.instant())
                .ifPresent(t -> out.add(new Pending(
                        task,
                        t,
                        Due.Origin.SERIES,
                        "fire time of " + task.trigger().describe())));
    }

    /**
     * Plans the fire that follows {@code previous}; when that time has already passed by more than the misfire
     * threshold, plans the catch-ups of the task's misfire policy and resumes the series from the present.
     */
    void planNext(AxTask task, Instant previous, Instant completed, List<Pending> out) {
        if (lifecycle.get() != Lifecycle.STARTED || tasks.get(task.name()) != task) {
            return;
        }
        Optional<Instant> next = task.trigger().nextFireTime(previous, completed);
        if (next.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        if (isMisfire(next.get(), now)) {
            planMissed(task, next.get(), now, true, out);
        } else {
            out.add(new Pending(
                    task,
                    next.get(),
                    Due.Origin.SERIES,
                    "fire time of " + task.trigger().describe()));
        }
    }

    boolean isMisfire(Instant fireTime, Instant now) {
        return fireTime.isBefore(now.minus(misfireThreshold));
    }

    /**
     * Plans what the task's misfire policy makes of the missed fire times from {@code firstMissed} on, then the
     * next regular fire after now.
     *
     * @param includeFirst whether {@code firstMissed} still needs an instance (false when one exists already)
     */
    void planMissed(AxTask task, Instant firstMissed, Instant now, boolean includeFirst, List<Pending> out) {
        MisfirePolicy policy = task.misfire();
        int caughtUp = 0;
        if (policy != MisfirePolicy.SKIP) {
            Instant t = firstMissed;
            int limit = policy == MisfirePolicy.FIRE_ONCE ? 1 : maxCatchUp;
            while (t != null && t.isBefore(now) && caughtUp < limit) {
                if (caughtUp > 0 || includeFirst) {
                    out.add(new Pending(
                            task, t, Due.Origin.CATCH_UP, "catch-up (" + policy + ") for the missed fire time " + t));
                }
                caughtUp++;
                t = task.trigger().nextFireTime(t, now).orElse(null);
            }
        }
        Optional<Instant> resumed = task.trigger().resumeAfter(firstMissed, now);
        LOG.log(
                Level.WARNING,
                "Task ''{0}'' missed fire times from {1}; misfire policy {2}: {3} catch-up(s), next fire {4}",
                task.name(),
                firstMissed,
                policy,
                caughtUp,
                resumed.map(Instant::toString).orElse("never"));
        resumed.ifPresent(t -> out.add(new Pending(
                task, t, Due.Origin.SERIES, "fire time of " + task.trigger().describe())));
    }

    /** Writes fires (one round trip) and puts each written one into the wheel. */
    void scheduleFires(List<Pending> pending) {
        for (Due due : write(pending)) {
            enqueue(due);
        }
    }

    /** Writes fires in one round trip; returns those written (duplicates of existing instances are left out). */
    private List<Due> write(List<Pending> pending) {
        if (pending.isEmpty()) {
            return List.of();
        }
        Instant now = clock.instant();
        List<NewFire> fires = new ArrayList<>(pending.size());
        List<Pending> normalized = new ArrayList<>(pending.size());
        for (Pending p : pending) {
            // stores keep microseconds: the time in memory must be the time in the store
            Pending q = new Pending(p.task(), p.time().truncatedTo(ChronoUnit.MICROS), p.origin(), p.reason());
            normalized.add(q);
            TaskInstance instance = new TaskInstance(
                    InstanceIds.next(now), q.task().name(), q.time(), InstanceState.SCHEDULED, 0, nodeId, now);
            fires.add(new NewFire(instance, p.origin() == Due.Origin.SERIES, p.reason()));
        }
        boolean[] written = store.schedule(fires);
        List<Due> dues = new ArrayList<>(pending.size());
        for (int i = 0; i < written.length; i++) {
            Pending p = normalized.get(i);
            if (written[i]) {
                dues.add(new Due(p.task(), fires.get(i).instance().id(), p.time(), p.origin()));
            } else {
                LOG.log(
                        Level.DEBUG,
                        "Task ''{0}'' already has an instance for {1}",
                        p.task().name(),
                        p.time());
            }
        }
        return dues;
    }

    /** Puts a SCHEDULED instance into the wheel, sharing the entry of other fires of the same trigger and time. */
    void enqueue(Due due) {
        TriggerGroups.Batch opened = groups.add(due.task().trigger(), due.scheduledTime(), due);
        if (opened != null) {
            at(deadlineOf(due.scheduledTime()), () -> fire(opened));
        }
    }

    /** On the dispatch thread: a batch fell due. */
    private void fire(TriggerGroups.Batch batch) {
        boolean drainPending = !ready.isEmpty();
        ready.addAll(groups.take(batch));
        if (!drainPending) {
            // runs after the fires already queued on the dispatch thread: all that fell due together goes as one group
            handOff(this::drainReady);
        }
    }

    /** On the dispatch thread: dispatches what fell due as one group, then writes the series' next fires. */
    private void drainReady() {
        List<Due> dues = List.copyOf(ready);
        ready.clear();
        dispatchFresh(dues);
        List<Pending> next = new ArrayList<>();
        for (Due due : dues) {
            if (due.series() && !due.task().trigger().measuresFromCompletion()) {
                planNext(due.task(), due.scheduledTime(), null, next);
            }
        }
        scheduleFires(next);
    }

    private void dispatchFresh(Due due) {
        dispatchFresh(List.of(due));
    }

    /**
     * Dispatches instances that fell due: their state changes go to the store as one group, then each that moved
     * to DISPATCHED goes to its pool. A fire of a non-overlapping task that finds the previous instance running is
     * SKIPPED; a catch-up waits for it instead.
     */
    private void dispatchFresh(List<Due> dues) {
        List<Due> moved = new ArrayList<>(dues.size());
        List<Transition> transitions = new ArrayList<>(dues.size());
        Instant now = clock.instant();
        for (Due due : dues) {
            AxTask task = due.task();
            String previous = task.concurrent() ? null : inFlight.putIfAbsent(task.name(), due.instanceId());
            if (previous == null || previous.equals(due.instanceId())) {
                moved.add(due);
                transitions.add(new Transition(
                        due.instanceId(),
                        InstanceState.SCHEDULED,
                        InstanceState.DISPATCHED,
                        1,
                        nodeId,
                        now,
                        "to pool '" + task.group() + "'"));
            } else if (due.origin() == Due.Origin.CATCH_UP) {
                waiting.computeIfAbsent(task.name(), k -> new ConcurrentLinkedQueue<>())
                        .add(due);
                if (!inFlight.containsKey(task.name())) {
                    startWaiting(task.name()); // released while we queued
                }
            } else {
                moved.add(due);
                transitions.add(new Transition(
                        due.instanceId(),
                        InstanceState.SCHEDULED,
                        InstanceState.SKIPPED,
                        0,
                        nodeId,
                        now,
                        "previous instance " + previous + " still running"));
            }
        }
        List<CompletableFuture<Boolean>> outcomes = writer.submitAll(transitions);
        for (int i = 0; i < moved.size(); i++) {
            Due due = moved.get(i);
            Transition t = transitions.get(i);
            boolean applied = outcome(outcomes.get(i), t);
            if (t.to() == InstanceState.DISPATCHED) {
                if (applied) {
                    submit(due, 1);
                } else {
                    release(due);
                }
            } else if (applied) {
                LOG.log(
                        Level.INFO,
                        "Task ''{0}'' instance {1} SKIPPED: {2}",
                        due.task().name(),
                        due.instanceId(),
                        t.reason());
                if (due.series() && due.task().trigger().measuresFromCompletion()) {
                    continueSeries(due);
                }
            }
        }
    }

    /** Moves an instance to DISPATCHED and hands it to its pool; a full pool sends it back to SCHEDULED. */
    void dispatch(Due due, InstanceState from, int attempt) {
        AxTask task = due.task();
        if (!move(due.instanceId(), from, InstanceState.DISPATCHED, attempt, "to pool '" + task.group() + "'")) {
            release(due);
            return;
        }
        submit(due, attempt);
    }

    /** Hands a DISPATCHED instance to its pool; a full pool sends it back to SCHEDULED, to be dispatched later. */
    private void submit(Due due, int attempt) {
        AxTask task = due.task();
        Execution execution = new Execution(due, attempt);
        try {
            pools.submit(task.group(), () -> runner.run(execution));
        } catch (RejectedExecutionException e) {
            PoolSettings s = pools.settings(task.group());
            String reason = "rejected: pool '" + task.group() + "' is full (" + s.threads() + " threads, queue "
                    + s.queueCapacity() + "); dispatching again in " + rejectionBackoff;
            if (move(due.instanceId(), InstanceState.DISPATCHED, InstanceState.SCHEDULED, attempt, reason)) {
                LOG.log(Level.WARNING, "Task ''{0}'' instance {1} {2}", task.name(), due.instanceId(), reason);
                after(rejectionBackoff, () -> dispatch(due, InstanceState.SCHEDULED, attempt));
            }
        }
    }

    // ---- shared with the runner ---------------------------------------------------------------------------

    /** A conditional transition with its audit row; false when the instance was no longer in {@code from}. */
    boolean move(String instanceId, InstanceState from, InstanceState to, int attempt, String reason) {
        Transition t = new Transition(instanceId, from, to, attempt, nodeId, clock.instant(), reason);
        return outcome(writer.submit(t), t);
    }

    /**
     * Records a transition without waiting for the store. For changes no other writer can contend for on this
     * node (the start and end of an attempt that this node's worker is running); they reach the store in order,
     * after every change handed in before them.
     */
    void record(String instanceId, InstanceState from, InstanceState to, int attempt, String reason) {
        Transition t = new Transition(instanceId, from, to, attempt, nodeId, clock.instant(), reason);
        writer.submit(t).whenComplete((applied, error) -> {
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

    private boolean outcome(CompletableFuture<Boolean> future, Transition t) {
        boolean applied;
        try {
            applied = future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
        logMove(t, applied);
        return applied;
    }

    private static void logMove(Transition t, boolean applied) {
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

    /** Runs {@code work} on the dispatch thread after {@code delay}; returns the timer handle, -1 once stopped. */
    long after(Duration delay, Runnable work) {
        return at(clock.nanoTime() + delay.toNanos(), work);
    }

    private long at(long deadlineNanos, Runnable work) {
        try {
            return wheel.schedule(deadlineNanos, work);
        } catch (IllegalStateException closed) {
            if (lifecycle.get() == Lifecycle.STARTED) {
                throw closed;
            }
            LOG.log(Level.DEBUG, "AX engine stopped; timer not set");
            return -1;
        }
    }

    void cancelTimer(long handle) {
        wheel.cancel(handle);
    }

    /** The instance reached a final state: let the next fire of a non-overlapping task start. */
    void release(Due due) {
        if (inFlight.remove(due.task().name(), due.instanceId())) {
            startWaiting(due.task().name());
        }
    }

    /** Dispatches the next catch-up that waits for the task (it competes for the in-flight slot again). */
    private void startWaiting(String taskName) {
        Queue<Due> queue = waiting.get(taskName);
        Due next = queue == null ? null : queue.poll();
        if (next != null) {
            handOff(() -> dispatchFresh(next));
        }
    }

    void ended(Due due) {
        release(due);
        if (due.series() && due.task().trigger().measuresFromCompletion()) {
            continueSeries(due);
        }
    }

    /** A fixed-delay series goes on from the end of its previous run. */
    private void continueSeries(Due due) {
        List<Pending> next = new ArrayList<>(1);
        planNext(due.task(), due.scheduledTime(), clock.instant(), next);
        scheduleFires(next);
    }

    /** Marks an instance recovered in flight, so that a non-overlapping task does not start another meanwhile. */
    void markInFlight(Due due) {
        if (!due.task().concurrent()) {
            inFlight.put(due.task().name(), due.instanceId());
        }
    }

    void publishDeadLetter(AxDeadLetterEvent event) {
        for (Consumer<AxDeadLetterEvent> listener : deadLetterListeners) {
            try {
                listener.accept(event);
            } catch (RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        "A dead-letter listener failed for instance {0}: {1}",
                        event.deadLetter().instanceId(),
                        e.toString());
            }
        }
    }

    InstanceRunner runner() {
        return runner;
    }

    Map<String, AxTask> registered() {
        return tasks;
    }

    /** Hands work to the dispatch thread. */
    void onDispatchThread(Runnable work) {
        handOff(work);
    }

    ExecutorRouter router() {
        return router;
    }

    AxClock clock() {
        return clock;
    }

    // ---- threads ------------------------------------------------------------------------------------------

    /** On the wheel thread: hands due work to the dispatch thread, never blocking; a full queue retries soon. */
    private void handOff(Runnable work) {
        try {
            dispatcher.execute(() -> runSafely(work));
        } catch (RejectedExecutionException e) {
            if (lifecycle.get() == Lifecycle.STARTED) {
                after(HAND_OFF_BACKOFF, work);
            }
        }
    }

    private static void runSafely(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "AX dispatch work failed; the engine goes on", e);
        }
    }

    private long deadlineOf(Instant fireTime) {
        long delta = Duration.between(clock.instant(), fireTime).toNanos();
        return clock.nanoTime() + Math.max(0, delta);
    }

    /** Builds an {@link AxEngine}; not thread-safe. */
    public static final class Builder {
        private InstanceStore store;
        private ExecutorRouter router;
        private AxClock clock = AxClock.system();
        private String nodeId = "local";
        private Duration tick = Duration.ofMillis(1);
        private Map<String, PoolSettings> pools = Map.of();
        private PoolSettings defaultPool = PoolSettings.defaults();
        private Duration shutdownAwait = Duration.ofSeconds(10);
        private Duration rejectionBackoff = Duration.ofSeconds(1);
        private Duration misfireThreshold = Duration.ofSeconds(5);
        private int maxCatchUp = 100;
        private final List<Consumer<AxDeadLetterEvent>> deadLetterListeners = new ArrayList<>();

        private Builder() {}

        public Builder store(InstanceStore store) {
            this.store = store;
            return this;
        }

        public Builder router(ExecutorRouter router) {
            this.router = router;
            return this;
        }

        public Builder clock(AxClock clock) {
            this.clock = clock;
            return this;
        }

        public Builder nodeId(String nodeId) {
            this.nodeId = nodeId;
            return this;
        }

        /** The wheel's tick: the resolution of fire times. Default 1 ms. */
        public Builder tick(Duration tick) {
            this.tick = positive(tick, "tick");
            return this;
        }

        /** Pool sizes per group; groups not named use {@link #defaultPool}. */
        public Builder pools(Map<String, PoolSettings> pools) {
            this.pools = Map.copyOf(pools);
            return this;
        }

        public Builder defaultPool(PoolSettings defaultPool) {
            this.defaultPool = Objects.requireNonNull(defaultPool, "defaultPool");
            return this;
        }

        /** How long {@link #stop()} waits for running work before interrupting it. Default 10 s. */
        public Builder shutdownAwait(Duration shutdownAwait) {
            this.shutdownAwait = Objects.requireNonNull(shutdownAwait, "shutdownAwait");
            return this;
        }

        /** How long an instance rejected by a full pool waits before it is dispatched again. Default 1 s. */
        public Builder rejectionBackoff(Duration rejectionBackoff) {
            this.rejectionBackoff = positive(rejectionBackoff, "rejectionBackoff");
            return this;
        }

        /** How late a computed fire time may be before the series skips ahead to the present. Default 5 s. */
        public Builder misfireThreshold(Duration misfireThreshold) {
            this.misfireThreshold = positive(misfireThreshold, "misfireThreshold");
            return this;
        }

        /** How many instances a FIRE_ALL misfire policy creates at most for the missed fire times. Default 100. */
        public Builder maxCatchUp(int maxCatchUp) {
            if (maxCatchUp < 1) {
                throw new IllegalArgumentException("maxCatchUp must be >= 1, was " + maxCatchUp);
            }
            this.maxCatchUp = maxCatchUp;
            return this;
        }

        /** Called on the dispatch or a worker thread when an instance goes DEAD; must not block. */
        public Builder onDeadLetter(Consumer<AxDeadLetterEvent> listener) {
            deadLetterListeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        public AxEngine build() {
            return new AxEngine(this);
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isZero() || d.isNegative()) {
                throw new IllegalArgumentException(what + " must be positive, was " + d);
            }
            return d;
        }
    }
}
