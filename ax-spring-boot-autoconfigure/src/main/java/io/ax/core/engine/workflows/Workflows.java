package io.ax.core.engine.workflows;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxTask;
import io.ax.core.DuplicateInstanceException;
import io.ax.core.Durability;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.WorkflowGraph;
import io.ax.core.engine.WorkflowRun;
import io.ax.core.engine.terms.Term;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.writes.Fence;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Moves workflow runs on: when an instance of a task with downstream tasks ends, the leader creates each downstream
 * step whose upstream tasks have all succeeded in that run, or, when the instance did not succeed, records every
 * step after it as SKIPPED for that run. The store holds a run's whole state: the root's instance id is the run id,
 * each step's instance is keyed by it ({@link TaskInstance#runKey}), so the store's unique (task, key) creates a
 * step once per run however many ends arrive together, on however many nodes.
 *
 * <p>The leader learns of ends from its own executions and from the assignments it follows to other nodes; what it
 * missed (an end on a node while no node led, a replay run elsewhere, a leader that died mid-way) its sweep finds:
 * every heartbeat, and when it takes over, it looks at the newest instances of every task with downstream tasks.
 * Decisions run on the leader's thread ({@code ax-leader}) only; reads for the endpoint and the tasks' contexts on
 * any thread.
 */
public final class Workflows {

    private static final System.Logger LOG = EngineLog.get();
    /** How many of the newest instances of each upstream task a sweep looks at. */
    static final int SWEEP_DEPTH = 20;
    /** Ends the sweep has seen and acted on; forgotten wholesale when it grows past this. */
    private static final int SETTLED_LIMIT = 10_000;

    private final InstanceStore stores;
    private final AxClock clock;
    private final String nodeId;
    private final Map<String, AxTask> tasks;
    /** Hands a step that is due now to the planner's wheel. */
    private final Consumer<Due> dueNow;

    private volatile WorkflowGraph graph = WorkflowGraph.empty();
    /** "instance id:state" of ends already acted on: the sweep passes them over; touched on ax-leader. */
    private final Set<String> settled = ConcurrentHashMap.newKeySet();

    /**
     * @param tasks the registered tasks, as they change (read only)
     * @param dueNow takes a step created due now
     */
    public Workflows(
            InstanceStore stores, AxClock clock, String nodeId, Map<String, AxTask> tasks, Consumer<Due> dueNow) {
        this.stores = stores;
        this.clock = clock;
        this.nodeId = nodeId;
        this.tasks = tasks;
        this.dueNow = dueNow;
    }

    public WorkflowGraph graph() {
        return graph;
    }

    public void graph(WorkflowGraph graph) {
        this.graph = graph;
    }

    /** Whether the end of {@code task}'s instances moves a run on. */
    public boolean hasDownstream(String task) {
        return !graph.downstream(task).isEmpty();
    }

    /** The run an instance belongs to: its run key's, or its own id for a root's; null outside workflows. */
    public String runOf(TaskInstance instance) {
        String run = instance.runId();
        if (run != null) {
            return run;
        }
        return graph.isRoot(instance.taskName()) ? instance.id() : null;
    }

    /** The instance of {@code task} in {@code run}: the root's is the run's own id, a step's is keyed by it. */
    Optional<TaskInstance> instanceOf(String task, String run) {
        if (graph.isRoot(task)) {
            return stores.find(run).filter(i -> i.taskName().equals(task));
        }
        return stores.findByKey(task, TaskInstance.runKey(run));
    }

    // ---- decisions: on ax-leader, while leading ----------------------------------------------------------------

    /**
     * An instance of a task with downstream tasks ended: its run goes on.
     *
     * @return false when the store does not show the end yet (its write is still on its way): ask again soon
     */
    public boolean advance(String instanceId, Term term) {
        Optional<TaskInstance> ended = stores.find(instanceId);
        if (ended.isPresent() && !ended.get().state().isFinal()) {
            return false;
        }
        ended.ifPresent(i -> advance(i, term));
        return true;
    }

    /** Moves the run of {@code ended} on, if {@code term} decides the run's steps (their partition is the run's). */
    private void advance(TaskInstance ended, Term term) {
        String run = runOf(ended);
        if (run == null || !ended.state().isFinal() || !term.decides(run)) {
            return;
        }
        if (ended.state() == InstanceState.SUCCESS) {
            List<Due> created = new ArrayList<>();
            Fence fence = term.fenceFor(run);
            for (String next : graph.downstream(ended.taskName())) {
                startIfReady(next, run, fence, created);
            }
            created.forEach(dueNow); // due now: the wheel hands them to the dispatch at once
        } else {
            block(ended, run);
        }
        settled.add(ended.id() + ":" + ended.state());
    }

    private void startIfReady(String taskName, String run, Fence fence, List<Due> created) {
        AxTask task = tasks.get(taskName);
        if (task == null || instanceOf(taskName, run).isPresent()) {
            return; // created already (by an earlier end, or another leader)
        }
        for (String u : graph.upstream(taskName)) {
            if (instanceOf(u, run).map(i -> i.state() != InstanceState.SUCCESS).orElse(true)) {
                return; // the last upstream to succeed creates it
            }
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        TaskInstance step = new TaskInstance(
                InstanceIds.next(task.durability(), now),
                taskName,
                now,
                InstanceState.SCHEDULED,
                0,
                nodeId,
                now,
                InstanceOrigin.WORKFLOW,
                TaskInstance.runKey(run));
        String reason = "workflow run " + run + ": " + String.join(", ", graph.upstream(taskName)) + " succeeded";
        boolean[] written = stores.schedule(List.of(fence.on(new NewFire(step, reason))), fence.leader());
        if (written[0]) {
            LOG.log(Level.DEBUG, "Workflow run {0}: step ''{1}'' created as {2}", run, taskName, step.id());
            created.add(new Due(task, step));
        }
    }

    /**
     * Records every step after {@code ended} as SKIPPED in its run, naming the upstream instance that did not
     * succeed. A replay of that instance that succeeds creates the steps themselves: their run key is not the
     * record's.
     */
    private void block(TaskInstance ended, String run) {
        String reason = "blocked in workflow run " + run + ": upstream '" + ended.taskName() + "' instance "
                + ended.id() + " ended " + ended.state();
        for (String taskName : graph.reachableFrom(ended.taskName())) {
            if (instanceOf(taskName, run).isPresent()) {
                continue; // it ran in this run already (a replayed upstream that died again)
            }
            Instant now = clock.instant();
            Optional<TaskInstance> record = stores.findByKey(taskName, TaskInstance.blockedKey(run));
            TaskInstance blocked;
            if (record.isPresent()) {
                blocked = record.get();
                if (blocked.state() != InstanceState.CREATED) {
                    continue; // recorded already
                }
            } else {
                blocked = new TaskInstance(
                        InstanceIds.next(Durability.PERSISTENT, now),
                        taskName,
                        now.truncatedTo(ChronoUnit.MICROS),
                        InstanceState.CREATED,
                        0,
                        nodeId,
                        now,
                        InstanceOrigin.WORKFLOW,
                        TaskInstance.blockedKey(run));
                try {
                    stores.create(blocked, "workflow run " + run);
                } catch (DuplicateInstanceException e) {
                    continue; // another leader recorded it meanwhile
                }
            }
            stores.transition(
                    new Transition(blocked.id(), InstanceState.CREATED, InstanceState.SKIPPED, 0, nodeId, now, reason));
            LOG.log(Level.INFO, "Task ''{0}'' SKIPPED in workflow run {1}: {2}", taskName, run, reason);
        }
    }

    /**
     * Looks for ends the leader did not hear of: the newest instances of every task with downstream tasks. Bounded:
     * {@link #SWEEP_DEPTH} instances per such task, and ends already acted on are passed over.
     */
    public void sweep(Term term) {
        WorkflowGraph g = graph;
        if (g.workflows().isEmpty()) {
            return;
        }
        if (settled.size() > SETTLED_LIMIT) {
            settled.clear();
        }
        for (WorkflowGraph.Workflow w : g.workflows()) {
            for (String task : w.tasks()) {
                if (g.downstream(task).isEmpty()) {
                    continue;
                }
                for (TaskInstance i : stores.findByTask(task, SWEEP_DEPTH)) {
                    if (i.state().isFinal() && !settled.contains(i.id() + ":" + i.state())) {
                        advance(i, term);
                    }
                }
            }
        }
    }

    // ---- reads: any thread ---------------------------------------------------------------------------------

    /** The newest runs of the workflow rooted at {@code root}, newest first. */
    public List<WorkflowRun> recentRuns(String root, int limit) {
        WorkflowGraph.Workflow w = graph.workflowOf(root);
        if (w == null) {
            return List.of();
        }
        List<WorkflowRun> runs = new ArrayList<>();
        for (TaskInstance start : stores.findByTask(w.root(), limit)) {
            String run = start.id();
            Map<String, InstanceState> steps = new LinkedHashMap<>();
            steps.put(w.root(), start.state());
            for (String task : w.tasks()) {
                if (task.equals(w.root())) {
                    continue;
                }
                Optional<TaskInstance> step = instanceOf(task, run);
                if (step.isEmpty()) {
                    step = stores.findByKey(task, TaskInstance.blockedKey(run));
                }
                step.ifPresent(s -> steps.put(task, s.state()));
            }
            runs.add(new WorkflowRun(
                    run,
                    w.root(),
                    start.scheduledTime(),
                    stateOf(steps, w.tasks().size()),
                    steps));
        }
        return runs;
    }

    private static String stateOf(Map<String, InstanceState> steps, int tasks) {
        boolean blocked = steps.values().stream().anyMatch(s -> s.isFinal() && s != InstanceState.SUCCESS);
        if (blocked) {
            return "blocked";
        }
        boolean done = steps.size() == tasks && steps.values().stream().allMatch(s -> s == InstanceState.SUCCESS);
        return done ? "succeeded" : "running";
    }

    /**
     * The results of {@code task}'s upstream tasks in {@code run}: the reason of each one's SUCCESS row, which is
     * the message of its {@code AxResult} ({@code succeeded} when it gave none, read as empty), bounded.
     */
    public Map<String, String> upstreamResults(String task, String run) {
        Map<String, String> results = new LinkedHashMap<>();
        for (String u : graph.upstream(task)) {
            instanceOf(u, run).filter(i -> i.state() == InstanceState.SUCCESS).ifPresent(i -> {
                String message = "";
                List<AuditEntry> trail = stores.auditTrail(i.id());
                for (int k = trail.size() - 1; k >= 0; k--) {
                    if (trail.get(k).to() == InstanceState.SUCCESS) {
                        message = trail.get(k).reason();
                        break;
                    }
                }
                if (AuditEntry.DEFAULT_SUCCESS_REASON.equals(message)) {
                    message = "";
                }
                if (message.length() > AxContext.MAX_UPSTREAM_RESULT) {
                    message = message.substring(0, AxContext.MAX_UPSTREAM_RESULT);
                }
                results.put(u, message);
            });
        }
        return results;
    }
}
