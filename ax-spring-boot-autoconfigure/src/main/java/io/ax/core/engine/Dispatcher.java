package io.ax.core.engine;

import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.Transition;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;

/**
 * Moves due instances to DISPATCHED and hands them to their pools, keeping non-overlapping tasks from overlapping:
 * a fire that finds the task's previous instance in flight is SKIPPED (a catch-up waits for it instead). A full
 * pool sends an instance back to SCHEDULED, to be dispatched again after the rejection back-off.
 */
final class Dispatcher {

    private static final System.Logger LOG = System.getLogger(AxEngine.class.getName());

    private final AxEngine engine;
    private final ExecutionPools pools;
    private final String nodeId;
    private final Duration rejectionBackoff;
    /** Task name -> the instance in flight, for tasks that must not overlap (concurrent = false). */
    private final Map<String, String> inFlight = new ConcurrentHashMap<>();
    /** Task name -> catch-up instances waiting for the in-flight one of a non-overlapping task to end. */
    private final Map<String, Queue<Due>> waiting = new ConcurrentHashMap<>();
    /** Task name -> due instances of a paused task, waiting for its resume; touched only on the dispatch thread. */
    private final Map<String, List<Due>> held = new HashMap<>();

    Dispatcher(AxEngine engine, ExecutionPools pools, Duration rejectionBackoff) {
        this.engine = engine;
        this.pools = pools;
        this.nodeId = engine.nodeId();
        this.rejectionBackoff = rejectionBackoff;
    }

    void dispatchFresh(Due due) {
        dispatchFresh(List.of(due));
    }

    /**
     * Dispatches instances that fell due: their state changes go to the store as one group, then each that moved
     * to DISPATCHED goes to its pool. A fire of a non-overlapping task that finds the previous instance running is
     * SKIPPED; a catch-up waits for it instead.
     */
    void dispatchFresh(List<Due> dues) {
        List<Due> moved = new ArrayList<>(dues.size());
        List<Transition> transitions = new ArrayList<>(dues.size());
        Instant now = engine.clock().instant();
        for (Due due : dues) {
            AxTask task = due.task();
            if (engine.isPaused(task.name())) {
                if (due.series()) {
                    moved.add(due);
                    transitions.add(new Transition(
                            due.instanceId(),
                            InstanceState.SCHEDULED,
                            InstanceState.SKIPPED,
                            0,
                            nodeId,
                            now,
                            "task '" + task.name() + "' is paused",
                            due.scheduledTime()));
                } else {
                    held.computeIfAbsent(task.name(), k -> new ArrayList<>()).add(due);
                }
                continue;
            }
            boolean overlapAllowed = task.concurrent() || due.origin() == InstanceOrigin.DELAYED;
            String previous = overlapAllowed ? null : inFlight.putIfAbsent(task.name(), due.instanceId());
            if (previous == null) {
                moved.add(due);
                transitions.add(new Transition(
                        due.instanceId(),
                        InstanceState.SCHEDULED,
                        InstanceState.DISPATCHED,
                        1,
                        nodeId,
                        now,
                        "to pool '" + task.group() + "'",
                        due.scheduledTime()));
            } else if (previous.equals(due.instanceId())) {
                LOG.log(Level.DEBUG, "Instance {0} is already in flight; its second fire is dropped", previous);
            } else if (due.origin() == InstanceOrigin.CATCH_UP) {
                Queue<Due> queue = waiting.computeIfAbsent(task.name(), k -> new ConcurrentLinkedQueue<>());
                if (queue.stream().noneMatch(d -> d.instanceId().equals(due.instanceId()))) {
                    queue.add(due); // the same catch-up again (found overdue by a sweep) waits once
                }
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
                        "previous instance " + previous + " has not finished",
                        due.scheduledTime()));
            }
        }
        List<CompletableFuture<Boolean>> outcomes = engine.writer().submitAll(transitions);
        List<Rejected> rejected = new ArrayList<>();
        for (int i = 0; i < moved.size(); i++) {
            Due due = moved.get(i);
            Transition t = transitions.get(i);
            boolean applied = engine.writer().outcome(outcomes.get(i), t);
            if (t.to() == InstanceState.DISPATCHED) {
                if (!applied) {
                    release(due);
                } else if (!submit(due, 1)) {
                    rejected.add(new Rejected(due, 1));
                }
            } else if (applied) {
                engine.insight().skipped(due);
                LOG.log(
                        Level.INFO,
                        "Task ''{0}'' instance {1} SKIPPED: {2}",
                        due.task().name(),
                        due.instanceId(),
                        t.reason());
                if (due.series() && due.task().trigger().measuresFromCompletion()) {
                    engine.fires().ended(due);
                }
            }
        }
        reject(rejected);
    }

    /** Moves an instance to DISPATCHED and hands it to its pool; a full pool sends it back to SCHEDULED. */
    void dispatch(Due due, InstanceState from, int attempt) {
        AxTask task = due.task();
        if (!engine.writer()
                .move(due.instanceId(), from, InstanceState.DISPATCHED, attempt, "to pool '" + task.group() + "'")) {
            release(due);
            return;
        }
        if (!submit(due, attempt)) {
            reject(List.of(new Rejected(due, attempt)));
        }
    }

    /** An instance that was DISPATCHED but found its pool full. */
    private record Rejected(Due due, int attempt) {}

    /** Hands a DISPATCHED instance to its pool; false when the pool's threads and queue are full. */
    private boolean submit(Due due, int attempt) {
        Execution execution = new Execution(due, attempt);
        engine.insight().handingOff(due, attempt);
        try {
            pools.submit(due.task().group(), () -> engine.runner().run(execution));
            engine.insight().handedOff(due);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Sends instances that found their pool full back to SCHEDULED, as one group, and dispatches them again, as one
     * group, after the rejection back-off. One WARN per group, not per instance.
     */
    private void reject(List<Rejected> rejected) {
        if (rejected.isEmpty()) {
            return;
        }
        Instant now = engine.clock().instant();
        List<Transition> back = new ArrayList<>(rejected.size());
        for (Rejected r : rejected) {
            String group = r.due().task().group();
            PoolSettings s = pools.settings(group);
            back.add(new Transition(
                    r.due().instanceId(),
                    InstanceState.DISPATCHED,
                    InstanceState.SCHEDULED,
                    r.attempt(),
                    nodeId,
                    now,
                    "rejected: pool '" + group + "' is full (" + s.threads() + " threads, queue " + s.queueCapacity()
                            + "); dispatching again in " + rejectionBackoff));
        }
        List<CompletableFuture<Boolean>> outcomes = engine.writer().submitAll(back);
        List<Rejected> again = new ArrayList<>(rejected.size());
        for (int i = 0; i < back.size(); i++) {
            if (engine.writer().outcome(outcomes.get(i), back.get(i))) {
                again.add(rejected.get(i));
                engine.insight().rejected(rejected.get(i).due());
            } else {
                engine.insight().released(rejected.get(i).due());
            }
        }
        if (!again.isEmpty()) {
            LOG.log(
                    Level.WARNING,
                    "{0} instance(s) {1}",
                    again.size(),
                    back.get(0).reason());
            engine.after(rejectionBackoff, () -> dispatchAgain(again));
        }
    }

    /** On the dispatch thread: instances sent back by a full pool try again, as one group. */
    private void dispatchAgain(List<Rejected> rejected) {
        Instant now = engine.clock().instant();
        List<Transition> transitions = new ArrayList<>(rejected.size());
        for (Rejected r : rejected) {
            transitions.add(new Transition(
                    r.due().instanceId(),
                    InstanceState.SCHEDULED,
                    InstanceState.DISPATCHED,
                    r.attempt(),
                    nodeId,
                    now,
                    "to pool '" + r.due().task().group() + "' again",
                    r.due().scheduledTime()));
        }
        List<CompletableFuture<Boolean>> outcomes = engine.writer().submitAll(transitions);
        List<Rejected> still = new ArrayList<>();
        for (int i = 0; i < rejected.size(); i++) {
            Rejected r = rejected.get(i);
            if (!engine.writer().outcome(outcomes.get(i), transitions.get(i))) {
                release(r.due());
            } else if (!submit(r.due(), r.attempt())) {
                still.add(r);
            }
        }
        reject(still);
    }

    /** The instance reached a final state: let the next fire of a non-overlapping task start. */
    void release(Due due) {
        engine.insight().released(due);
        if (inFlight.remove(due.task().name(), due.instanceId())) {
            startWaiting(due.task().name());
        }
    }

    /** Dispatches the next catch-up that waits for the task (it competes for the in-flight slot again). */
    private void startWaiting(String taskName) {
        Queue<Due> queue = waiting.get(taskName);
        Due next = queue == null ? null : queue.poll();
        if (next != null) {
            engine.onDispatchThread(() -> dispatchFresh(next));
        }
    }

    /** On the dispatch thread: a task was resumed; what fell due while it was paused is dispatched now. */
    void resume(String taskName) {
        List<Due> dues = held.remove(taskName);
        if (dues != null) {
            dispatchFresh(dues);
        }
    }

    /** Marks an instance recovered in flight, so that a non-overlapping task does not start another meanwhile. */
    void markInFlight(Due due) {
        if (!due.task().concurrent()) {
            inFlight.put(due.task().name(), due.instanceId());
        }
    }
}
