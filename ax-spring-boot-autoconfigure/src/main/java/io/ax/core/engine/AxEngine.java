package io.ax.core.engine;

import io.ax.core.AxException;
import io.ax.core.AxScheduler;
import io.ax.core.AxTask;
import io.ax.core.IllegalTransitionException;
import io.ax.core.InstanceDetails;
import io.ax.core.InstanceState;
import io.ax.core.Operator;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskDefinition;
import io.ax.core.TaskInstance;
import io.ax.core.UnknownInstanceException;
import io.ax.core.UnknownTaskException;
import io.ax.core.engine.definitions.RuntimeTasks;
import io.ax.core.engine.insight.ActivityRollup;
import io.ax.core.engine.insight.Listeners;
import io.ax.core.engine.insight.StoreFigures;
import io.ax.core.engine.ownership.Leadership;
import io.ax.core.engine.scheduling.Prefetcher;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.work.ExecutionPools;
import io.ax.core.store.InstanceQuery;
import io.ax.core.store.InstanceStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

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
 *   <li>{@code ax-cluster} and its watchdog {@code ax-cluster-watch} ({@link io.ax.core.cluster.Membership}):
 *       heartbeats, the lease, the deadlines of both; {@code ax-partitions} (the same): the partitions' rounds;
 *       {@code ax-cluster-time} ({@link io.ax.core.clock.ClusterTime}): the offset to the database's clock;
 *   <li>{@code ax-leader1} ({@link Leadership}): the takeover of gained partitions, the remote holders it follows,
 *       its sweeps; {@code ax-permits1} to 4 ({@link io.ax.core.engine.work.LimitedClaims}): claims with permits;
 *   <li>{@code ax-prefetch1} ({@link Prefetcher}): the prefetch window's loads; {@code ax-definitions1} ({@link
 *       RuntimeTasks}): the runtime task definitions; {@code ax-retention-1} ({@link
 *       io.ax.core.engine.ownership.Retention}): the deletion of old rows; {@code ax-activity-1} ({@link
 *       ActivityRollup}): this node's per-minute counts, written for the charts; {@code ax-figures1} ({@link
 *       StoreFigures}): the store's figures for health;
 *   <li>{@code ax-clock} ({@link io.ax.core.engine.planning.ClockGuard}): the clock watch that pauses trigger
 *       decisions when the clock jumps; {@code ax-events-1} ({@link Listeners}): the application's listeners; {@code
 *       ax-stop} ({@link EngineLifecycle}, during {@link #stop} only): each bounded step of a stop.
 * </ul>
 *
 * <p>The parts are built and wired by {@link EngineParts}, started and stopped in order by {@link EngineLifecycle};
 * this class is the facade, and no part holds it. Thread-safe; build one with {@link #builder}.
 */
public final class AxEngine implements AxScheduler, AutoCloseable {

    private final EngineParts parts;
    private final EngineLifecycle lifecycle;
    private final EngineStatus status;

    AxEngine(AxEngineBuilder b) {
        this.parts = new EngineParts(b);
        this.lifecycle = new EngineLifecycle(parts);
        this.status = new LiveStatus(
                parts.threads,
                parts.pools,
                parts.writer,
                parts.fireWriter,
                parts.endWriter,
                parts.leadership,
                parts.prefetcher,
                parts.limited,
                parts.insight,
                parts.clusterTime,
                parts.clockGuard,
                parts.membership,
                parts.figures,
                parts.listeners,
                parts.storeRegressions);
    }

    public static AxEngineBuilder builder() {
        return new AxEngineBuilder();
    }

    /**
     * Registers a task. Before {@link #start()} its first fire is computed at start; after, at once.
     *
     * @throws io.ax.core.InvalidTaskException when no executor accepts its type, or the executor finds it cannot run
     *     (see {@link io.ax.core.AxExecutor#check})
     * @throws AxException when the name is taken
     */
    public void register(AxTask task) {
        parts.taskChanges.add(task);
    }

    /**
     * Starts the wheel, resumes what the store says is unfinished (see {@link io.ax.core.engine.ownership.Recovery})
     * and schedules the next fire of every registered task. Idempotent.
     *
     * @throws io.ax.core.InvalidTaskException when the tasks' dependencies do not make valid workflows (see {@link
     *     WorkflowGraph}); nothing was started
     */
    public void start() {
        lifecycle.start();
    }

    /**
     * Stops firing, lets running work finish for the configured shutdown wait, then interrupts what remains.
     * Idempotent.
     */
    public void stop() {
        lifecycle.stop();
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
        return parts.actions.runNow(taskName, params, by);
    }

    @Override
    public List<String> scheduleAll(List<ScheduleRequest> requests) {
        Objects.requireNonNull(requests, "requests");
        return parts.delayed.scheduleAll(requests);
    }

    @Override
    public boolean cancel(String instanceId) {
        Objects.requireNonNull(instanceId, "instanceId");
        return parts.delayed.cancel(instanceId);
    }

    @Override
    public boolean reschedule(String instanceId, Instant newTime) {
        Objects.requireNonNull(instanceId, "instanceId");
        return parts.delayed.reschedule(instanceId, newTime);
    }

    @Override
    public Optional<InstanceDetails> find(String instanceId) {
        Objects.requireNonNull(instanceId, "instanceId");
        return parts.delayed.find(instanceId);
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
        parts.actions.pause(taskName, by);
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
        parts.actions.resume(taskName, by);
    }

    /** Whether a task is paused. */
    public boolean isPaused(String taskName) {
        return parts.taskRegistry.isPaused(taskName);
    }

    /** The task with that name, if registered; the name must not be null. */
    public Optional<AxTask> task(String name) {
        return Optional.ofNullable(parts.tasks.get(Objects.requireNonNull(name, "taskName")));
    }

    /** Every registered task. */
    public Collection<AxTask> tasks() {
        return List.copyOf(parts.tasks.values());
    }

    /**
     * The configured store, holding PERSISTENT instances, their audit trail and dead letters. MEMORY instances are
     * not in it: {@link #find} finds every instance.
     */
    public InstanceStore store() {
        return parts.store;
    }

    /** This node's id, as written into the audit log. */
    public String nodeId() {
        return parts.nodeId;
    }

    /**
     * What this engine tells of its own state (the wheel, the pools, the writers, the cluster as it sees it), for
     * health, metrics and the endpoint: answered from memory, never by asking the store.
     */
    public EngineStatus status() {
        return status;
    }

    /** Whether the engine has started and not stopped. */
    public boolean isRunning() {
        return parts.isRunning();
    }

    // ---- tasks registered at runtime ----------------------------------------------------------------------

    @Override
    public TaskDefinition register(TaskDefinition definition) {
        return parts.runtimeTasks.register(Objects.requireNonNull(definition, "definition"));
    }

    @Override
    public TaskDefinition update(TaskDefinition definition) {
        return parts.runtimeTasks.update(Objects.requireNonNull(definition, "definition"));
    }

    @Override
    public void unregister(String taskName) {
        parts.runtimeTasks.unregister(Objects.requireNonNull(taskName, "taskName"));
    }

    @Override
    public List<TaskDefinition> list() {
        return parts.runtimeTasks.list();
    }

    // ---- workflows ----------------------------------------------------------------------------------------

    /** The workflows among the registered tasks: each one's root, tasks and edges. */
    public WorkflowGraph workflowGraph() {
        return parts.workflows.graph();
    }

    /**
     * The newest runs of the workflow that {@code task} belongs to, newest first, as the store has them; empty when
     * it belongs to none.
     */
    public List<WorkflowRun> recentRuns(String task, int limit) {
        return parts.workflows.recentRuns(Objects.requireNonNull(task, "task"), limit);
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
        return parts.operations.cancelWaiting(instanceId, null);
    }

    /**
     * Like {@link #cancelWaiting(String)}, asked by an operator, who is named in the audit trail and the log line.
     *
     * @param by who asked; null when nobody in particular
     */
    public InstanceDetails cancelWaiting(String instanceId, Operator by) {
        return parts.operations.cancelWaiting(instanceId, by);
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
        return parts.operations.replay(instanceId, null);
    }

    /**
     * Like {@link #replay(String)}, asked by an operator, who is named in the audit trail and the log line.
     *
     * @param by who asked; null when nobody in particular
     */
    public InstanceDetails replay(String instanceId, Operator by) {
        return parts.operations.replay(instanceId, by);
    }

    // ---- insight ------------------------------------------------------------------------------------------

    /**
     * The instances that meet an operator's search, newest scheduled time first, from every store (MEMORY ones
     * too); see {@link InstanceStore#search}.
     */
    public List<TaskInstance> search(InstanceQuery query) {
        return parts.stores.search(Objects.requireNonNull(query, "query"));
    }

    /** A task's newest instances, newest scheduled time first, from every store (MEMORY ones too). */
    public List<TaskInstance> instancesOf(String taskName, int limit) {
        return parts.stores.findByTask(taskName, limit);
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
        return parts.activity.last(task, window, bucket);
    }

    /** The longest window {@link #activity} reads. */
    public static final Duration MAX_ACTIVITY_WINDOW = ActivityRollup.MAX_WINDOW;

    // ---- for the engine's tests ---------------------------------------------------------------------------------

    /** The parts, for the engine's tests: its threads, clock watch, dispatcher and leadership. */
    EngineParts parts() {
        return parts;
    }
}
