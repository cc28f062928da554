package io.ax.core.engine;

import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.HashRing;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Assignment (on the leader) and the start of each attempt (on every node): moves due instances to DISPATCHED,
 * assigned to the node the ring picks, keeping non-overlapping tasks from overlapping across the cluster: a fire
 * that finds the task's previous instance in flight is SKIPPED (a catch-up waits for it instead). An instance this
 * node should run but cannot take now (its pool full) stays SCHEDULED and is dispatched again after the rejection
 * back-off.
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
    /** Instances handed to dispatch outside the wheel and not yet written DISPATCHED; see {@link #expect}. */
    private final Set<String> pipeline = ConcurrentHashMap.newKeySet();
    /** Task name -> due instances of a paused task, waiting for its resume. */
    private final Map<String, List<Due>> held = new ConcurrentHashMap<>();

    private final Leadership leadership;
    private final Claimer claimer;

    Dispatcher(
            AxEngine engine, ExecutionPools pools, Duration rejectionBackoff, Leadership leadership, Claimer claimer) {
        this.engine = engine;
        this.pools = pools;
        this.nodeId = engine.nodeId();
        this.rejectionBackoff = rejectionBackoff;
        this.leadership = leadership;
        this.claimer = claimer;
    }

    void dispatchFresh(Due due) {
        dispatchFresh(List.of(due));
    }

    /**
     * The leader's assignment: instances that fell due move to DISPATCHED, each assigned to the live node the ring
     * picks, as one group of writes fenced by this node's epoch. Those assigned here are claimed (DISPATCHED -&gt;
     * RUNNING) in the same group and handed to their pool; the others are tracked until their owner acknowledges
     * them. A fire of a non-overlapping task that finds the previous instance in flight is SKIPPED (a catch-up waits
     * for it instead). A node that does not lead dispatches nothing: the instances stay SCHEDULED in the store for
     * the leader.
     */
    void dispatchFresh(List<Due> dues) {
        try {
            long leaderEpoch = leadership.epoch();
            List<Due> mine = dues;
            if (leaderEpoch == 0) {
                // MEMORY executions live in this process only: they run here, whoever leads
                mine = dues.stream()
                        .filter(d -> InstanceIds.isMemory(d.instanceId()))
                        .toList();
                dues.stream().filter(d -> !InstanceIds.isMemory(d.instanceId())).forEach(engine.insight()::released);
                if (mine.isEmpty()) {
                    return;
                }
            }
            assign(mine, leaderEpoch);
        } finally {
            for (Due due : dues) {
                pipeline.remove(due.instanceId());
            }
        }
    }

    /**
     * An instance is on its way to {@link #dispatchFresh} outside the wheel (a run on demand, a retry after a full
     * pool): a sweep that finds it still SCHEDULED leaves it alone meanwhile.
     */
    void expect(Due due) {
        pipeline.add(due.instanceId());
    }

    /** Whether an instance is on its way to dispatch outside the wheel. */
    boolean expects(String instanceId) {
        return pipeline.contains(instanceId);
    }

    private void assign(List<Due> dues, long leaderEpoch) {
        HashRing ring = leadership.ring();
        List<Due> moved = new ArrayList<>(dues.size());
        List<Transition> transitions = new ArrayList<>(dues.size() * 2);
        List<String> owners = new ArrayList<>(dues.size());
        List<Due> full = new ArrayList<>();
        Instant now = engine.clock().instant();
        for (Due due : dues) {
            AxTask task = due.task();
            boolean inMemory = InstanceIds.isMemory(due.instanceId());
            long epoch = inMemory ? 0 : leaderEpoch; // MEMORY instances are not in the shared store: no fence
            if (engine.isPaused(task.name())) {
                if (due.series()) {
                    moved.add(due);
                    owners.add(null);
                    transitions.add(skip(due, now, "task '" + task.name() + "' is paused", epoch));
                } else {
                    held.computeIfAbsent(task.name(), k -> new ArrayList<>()).add(due);
                }
                continue;
            }
            boolean overlapAllowed = task.concurrent() || due.origin() == InstanceOrigin.DELAYED;
            String previous = overlapAllowed ? null : inFlight.putIfAbsent(task.name(), due.instanceId());
            if (previous != null && !previous.equals(due.instanceId()) && hasEnded(previous)) {
                // its end was never heard of here (it ended on a node that was taken for dead, say): the store says
                // it is over, so the slot is free
                previous = inFlight.replace(task.name(), previous, due.instanceId()) ? null : previous;
            }
            if (previous == null) {
                String owner = inMemory ? nodeId : leadership.ownerOf(ring, due.instanceId());
                boolean local = owner.equals(nodeId);
                if (local && !pools.tryReserve(task.group())) {
                    release(due);
                    full.add(due);
                    continue;
                }
                moved.add(due);
                owners.add(owner);
                transitions.add(new Transition(
                                due.instanceId(),
                                InstanceState.SCHEDULED,
                                InstanceState.DISPATCHED,
                                due.attempt(),
                                nodeId,
                                now,
                                "assigned to node " + owner + (epoch > 0 ? " (epoch " + epoch + ")" : ""),
                                due.scheduledTime())
                        .assignedTo(owner, epoch));
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
                owners.add(null);
                transitions.add(skip(due, now, "previous instance " + previous + " has not finished", epoch));
            }
        }
        // the acknowledgements of what this node runs itself go in the same group, right after their assignments:
        // one round trip assigns and claims them (a store that can, such as PostgreSQL, makes it one update each)
        // each claim right after its assignment: the writer's groups end anywhere, and the first instances start
        // while the last are still being written
        int[] assignAt = new int[moved.size()];
        int[] claimAt = new int[moved.size()];
        List<Transition> ordered = new ArrayList<>(transitions.size() * 2);
        for (int i = 0; i < moved.size(); i++) {
            assignAt[i] = ordered.size();
            ordered.add(transitions.get(i));
            claimAt[i] = -1;
            if (transitions.get(i).to() == InstanceState.DISPATCHED && nodeId.equals(owners.get(i))) {
                Due due = moved.get(i);
                claimAt[i] = ordered.size();
                claimer.claiming(due.instanceId()); // the poll must not claim it meanwhile
                ordered.add(claimer.acknowledgement(due, due.attempt()));
            }
        }
        List<CompletableFuture<Boolean>> outcomes = engine.writer().submitAll(ordered);
        Set<String> woken = new HashSet<>();
        try {
            for (int i = 0; i < moved.size(); i++) {
                Due due = moved.get(i);
                Transition t = transitions.get(i);
                boolean applied = engine.writer().outcome(outcomes.get(assignAt[i]), t);
                if (t.to() == InstanceState.DISPATCHED) {
                    String owner = owners.get(i);
                    boolean local = owner.equals(nodeId);
                    boolean claimed =
                            local && engine.writer().outcome(outcomes.get(claimAt[i]), ordered.get(claimAt[i]));
                    if (local && !(applied && claimed)) {
                        // not assigned (taken meanwhile), or assigned and not claimed: the poll claims it later
                        pools.unreserve(due.task().group());
                        if (!applied) {
                            release(due);
                        }
                    } else if (!applied) {
                        release(due);
                    } else if (local) {
                        claimer.run(new Claimer.Claim(due, due.attempt(), null, now)); // starts now
                    } else {
                        leadership.assigned(due, owner);
                        engine.insight().released(due);
                        woken.add(owner);
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
        } catch (FencedOutException e) {
            fencedOut(e, moved, owners);
            return;
        } finally {
            for (int i = 0; i < moved.size(); i++) {
                if (claimAt[i] >= 0) {
                    claimer.settled(moved.get(i).instanceId());
                }
            }
        }
        engine.wakeUps().signal(woken); // the owners look now, not at their next poll
        later(full);
    }

    /** Whether the store says an instance that holds a task's slot has ended (or is gone). */
    private boolean hasEnded(String instanceId) {
        try {
            return engine.stores()
                    .find(instanceId)
                    .map(i -> i.state().isFinal())
                    .orElse(true);
        } catch (RuntimeException e) {
            return false; // cannot tell: the slot stays taken
        }
    }

    private Transition skip(Due due, Instant now, String reason, long epoch) {
        return new Transition(
                        due.instanceId(),
                        InstanceState.SCHEDULED,
                        InstanceState.SKIPPED,
                        0,
                        nodeId,
                        now,
                        reason,
                        due.scheduledTime())
                .assignedTo(null, epoch);
    }

    /** This node's decisions were rejected: another leads now. Nothing it reserved stays reserved. */
    private void fencedOut(FencedOutException e, List<Due> moved, List<String> owners) {
        for (int i = 0; i < moved.size(); i++) {
            if (nodeId.equals(owners.get(i))) {
                pools.unreserve(moved.get(i).task().group());
            }
            release(moved.get(i));
        }
        LOG.log(Level.WARNING, "Node {0} is no longer the leader: {1}", nodeId, e.getMessage());
        leadership.fencedOut();
    }

    /** Instances this node should run but found its pool full: dispatched again after the back-off, as one group. */
    private void later(List<Due> full) {
        if (full.isEmpty()) {
            return;
        }
        full.forEach(engine.insight()::rejected);
        LOG.log(
                Level.WARNING,
                "{0} instance(s) wait: pool ''{1}'' is full; dispatching again in {2}",
                full.size(),
                full.get(0).task().group(),
                rejectionBackoff);
        full.forEach(this::expect);
        engine.after(rejectionBackoff, () -> dispatchFresh(full));
    }

    /**
     * The next attempt of an instance this node owns (or, with {@code takenFrom}, takes over from a node that is
     * gone, as the leader of {@code fence}): {@code from} -&gt; DISPATCHED -&gt; RUNNING in one group, then its
     * pool. A full pool retries after the back-off.
     */
    void dispatch(Due due, InstanceState from, int attempt, String takenFrom, long fence) {
        if (!pools.tryReserve(due.task().group())) {
            engine.insight().rejected(due);
            engine.after(rejectionBackoff, () -> dispatch(due, from, attempt, takenFrom, fence));
            return;
        }
        Transition toDispatched = engine.writer()
                .owned(
                        due.instanceId(),
                        from,
                        InstanceState.DISPATCHED,
                        attempt,
                        "attempt " + attempt + " on node " + nodeId,
                        takenFrom,
                        fence);
        claimer.claimAndRun(List.of(new Claimer.Claim(due, attempt, toDispatched, null)));
    }

    void dispatch(Due due, InstanceState from, int attempt) {
        dispatch(due, from, attempt, null, 0);
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

    /** This node stopped leading: what it held for its decisions goes (the next leader reads the store). */
    void clear() {
        inFlight.clear();
        waiting.clear();
        held.clear();
    }

    /** Marks an instance recovered in flight, so that a non-overlapping task does not start another meanwhile. */
    void markInFlight(Due due) {
        if (!due.task().concurrent()) {
            inFlight.put(due.task().name(), due.instanceId());
        }
    }
}
