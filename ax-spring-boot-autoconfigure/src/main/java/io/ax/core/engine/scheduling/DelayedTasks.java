package io.ax.core.engine.scheduling;

import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.InstanceDetails;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.InvalidScheduleException;
import io.ax.core.PayloadCodec;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.TraceContextCapture;
import io.ax.core.engine.scheduling.ScheduleRequests.Checked;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.MemoryTask;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One-shot executions scheduled through {@link io.ax.core.AxScheduler}. PERSISTENT ones are written to the store
 * and enter the wheel when their time is inside the prefetch window (at once if it already is); MEMORY ones go
 * straight into the wheel as a {@link MemoryTask} and enter the in-memory store only when they fall due.
 *
 * <p>Called inside a transaction that the store's writes join (a Spring-managed one on the JDBC store's
 * DataSource), a schedule, cancel or reschedule commits and rolls back with it, and the engine learns of it only
 * after the commit ({@link io.ax.core.store.InstanceStore#afterCommit}): nothing enters or leaves the wheel, and no
 * leader is woken, for work that is not there for every node to see, or that never will be. MEMORY executions
 * follow the same rule, held in the wheel meanwhile (see {@link MemoryExecutions}).
 */
public final class DelayedTasks {

    private static final int WRITE_CHUNK = 5_000;
    private static final Runnable NOTHING = () -> {};

    private record TaskKey(String task, String key) {}

    /** What delayed tasks need of the rest of the engine; called on the caller's thread, or after its commit. */
    public interface Engine {
        /** Whether the engine takes scheduled work (it has not stopped). */
        boolean acceptsWork();

        /**
         * Whether this node decides the row of {@code due} now (it leads, or owns the row's partition): the node that
         * does is woken for what is written here.
         */
        boolean decides(Due due);

        /** Whether an instance due at {@code time} belongs in the wheel now (inside the loaded window). */
        boolean covers(Instant time);

        /** Puts an instance into the wheel. */
        void enqueue(Due due);

        /** Takes an instance out of the wheel. */
        void dequeue(String instanceId);

        /** A cancelled fire of a series: the series goes on. */
        void continueAfterCancel(AxTask task, TaskInstance cancelled);
    }

    private final InstanceStore stores;
    private final AxClock clock;
    private final String nodeId;
    private final Function<String, Optional<AxTask>> tasks;
    private final WakeUps wakeUps;
    private final Engine engine;
    private final ScheduleRequests checks;
    private final MemoryExecutions memory;
    private final CallerTrace callerTrace;

    /**
     * @param tasks finds a registered task by name
     * @param memory this node's MEMORY executions
     */
    public DelayedTasks(
            InstanceStore stores,
            AxClock clock,
            String nodeId,
            Function<String, Optional<AxTask>> tasks,
            WakeUps wakeUps,
            Engine engine,
            MemoryExecutions memory,
            PayloadCodec codec,
            int maxPayloadSize,
            TraceContextCapture traceCapture) {
        this.stores = stores;
        this.clock = clock;
        this.nodeId = nodeId;
        this.tasks = tasks;
        this.wakeUps = wakeUps;
        this.engine = engine;
        this.checks = new ScheduleRequests(tasks, codec, maxPayloadSize);
        this.memory = memory;
        this.callerTrace = new CallerTrace(traceCapture);
    }

    /** On the dispatch thread: a MEMORY execution fell due. */
    public void fire(MemoryTask m) {
        memory.fire(m);
    }

    // ---- schedule ---------------------------------------------------------------------------------------

    public List<String> scheduleAll(List<ScheduleRequest> requests) {
        if (!engine.acceptsWork()) {
            throw new AxException("The AX engine is stopped; it takes no scheduled work");
        }
        Instant now = clock.instant();
        // the whole batch first: a bad request anywhere in it leaves nothing written, in the store or the wheel
        List<Checked> checked = checks.checkAll(requests, now);
        // once for the batch: every request of a call belongs to the caller's one trace
        String traceParent = callerTrace.current();
        String[] ids = new String[checked.size()];
        // a key seen earlier in the same batch: the later request gets the earlier one's instance
        Map<TaskKey, Integer> firstOfKey = new HashMap<>();
        int[] sameAs = new int[checked.size()];
        List<Integer> persistent = new ArrayList<>();
        List<Integer> inMemory = new ArrayList<>();
        for (int i = 0; i < checked.size(); i++) {
            Checked c = checked.get(i);
            sameAs[i] = -1;
            if (c.key() != null) {
                Integer first = firstOfKey.putIfAbsent(new TaskKey(c.task().name(), c.key()), i);
                if (first != null) {
                    sameAs[i] = first;
                    continue;
                }
            }
            (c.durability() == Durability.MEMORY ? inMemory : persistent).add(i);
        }
        for (int from = 0; from < persistent.size(); from += WRITE_CHUNK) {
            List<Integer> chunk = persistent.subList(from, Math.min(persistent.size(), from + WRITE_CHUNK));
            writePersistent(chunk, checked, ids, traceParent, now);
        }
        // after the store took the PERSISTENT ones: a store that fails leaves no MEMORY execution behind either
        List<MemoryTask> parked = inMemory.isEmpty() ? null : parkedUntilCommit();
        for (int i : inMemory) {
            Checked c = checked.get(i);
            ids[i] = memory.schedule(c.task(), c.due(), c.payload(), c.key(), traceParent, c.priority(), now, parked);
        }
        for (int i = 0; i < ids.length; i++) {
            if (sameAs[i] >= 0) {
                ids[i] = ids[sameAs[i]];
            }
        }
        return List.of(ids);
    }

    private void writePersistent(
            List<Integer> chunk, List<Checked> checked, String[] ids, String traceParent, Instant now) {
        List<NewFire> fires = new ArrayList<>(chunk.size());
        for (int i : chunk) {
            Checked c = checked.get(i);
            TaskInstance instance = new TaskInstance(
                    InstanceIds.next(now),
                    c.task().name(),
                    c.due(),
                    InstanceState.SCHEDULED,
                    0,
                    nodeId,
                    now,
                    InstanceOrigin.DELAYED,
                    c.key(),
                    traceParent,
                    c.priority());
            fires.add(new NewFire(instance, "scheduled through AxScheduler", c.payload()));
        }
        boolean[] written = stores.schedule(fires);
        List<Due> learned = new ArrayList<>(written.length);
        try {
            collectIds(chunk, checked, fires, written, ids, learned);
        } finally {
            // what was written is learned even when a duplicate's lookup throws, as it was one by one before
            stores.afterCommit(() -> learn(learned), NOTHING);
        }
    }

    /** Each request's instance id: the one written, or the one of its key that the store holds already. */
    private void collectIds(
            List<Integer> chunk,
            List<Checked> checked,
            List<NewFire> fires,
            boolean[] written,
            String[] ids,
            List<Due> learned) {
        for (int n = 0; n < written.length; n++) {
            int i = chunk.get(n);
            TaskInstance instance = fires.get(n).instance();
            if (written[n]) {
                ids[i] = instance.id();
                learned.add(new Due(checked.get(i).task(), instance));
            } else {
                // inside the caller's transaction this also finds the instance it wrote there itself
                ids[i] = stores.findByKey(instance.taskName(), instance.key())
                        .map(TaskInstance::id)
                        .orElseThrow(() -> new AxException("Task '" + instance.taskName()
                                + "' has an instance with key '" + instance.key() + "', yet the store cannot find it"));
            }
        }
    }

    /**
     * What the engine learns of PERSISTENT instances once they are committed: the leader is woken (when it is
     * another node) to load what is due soon, and what lies inside this node's loaded window goes into the wheel.
     */
    private void learn(List<Due> written) {
        boolean elsewhere = false;
        for (Due due : written) {
            if (!engine.decides(due)) {
                elsewhere = true;
            } else if (engine.covers(due.scheduledTime())) {
                engine.enqueue(due);
            }
        }
        if (elsewhere) {
            wakeUps.signal(List.of(WakeUps.LEADER)); // the nodes that decide them load them now
        }
    }

    /**
     * Inside a caller's transaction: a list for the MEMORY executions about to be scheduled, held until it ends,
     * then let go to their times after a commit or dropped after a rollback. Outside one: null, and they go
     * straight to their times.
     */
    private List<MemoryTask> parkedUntilCommit() {
        if (!stores.inCallerTransaction()) {
            return null;
        }
        List<MemoryTask> parked = new ArrayList<>();
        // registered before any enters the wheel: one that did is released or dropped even if a later one throws
        stores.afterCommit(() -> parked.forEach(memory::release), () -> parked.forEach(memory::drop));
        return parked;
    }

    /** A PERSISTENT instance whose time lies inside the loaded window goes into the wheel now. */
    private void enqueueIfCovered(AxTask task, TaskInstance instance) {
        if (engine.covers(instance.scheduledTime())) {
            engine.enqueue(new Due(task, instance));
        }
    }

    // ---- cancel, reschedule, find -----------------------------------------------------------------------

    public boolean cancel(String instanceId) {
        return cancel(instanceId, "cancelled");
    }

    /** Cancels a SCHEDULED instance, audited with {@code reason}; false when it does not wait (any more). */
    public boolean cancel(String instanceId, String reason) {
        if (!InstanceIds.isWellFormed(instanceId)) {
            return false;
        }
        MemoryTask waiting = memory.pending(instanceId);
        if (waiting != null) {
            if (!stores.inCallerTransaction()) {
                if (memory.cancel(instanceId, waiting)) {
                    return cancelInStore(instanceId, 0, reason);
                }
            } else if (memory.hold(waiting)) {
                // held until the transaction ends: cancelled after a commit, back to its time after a rollback
                stores.afterCommit(
                        () -> {
                            if (memory.cancel(instanceId, waiting)) {
                                cancelInStore(instanceId, 0, reason);
                            }
                        },
                        () -> memory.release(waiting));
                return true;
            }
        }
        Optional<TaskInstance> found = stores.find(instanceId);
        if (found.isEmpty() || found.get().state() != InstanceState.SCHEDULED) {
            return false;
        }
        TaskInstance instance = found.get();
        if (!cancelInStore(instanceId, instance.attempt(), reason)) {
            return false;
        }
        // after the commit: a cancel that rolls back leaves the instance in the wheel, due as it was (meanwhile its
        // fire waits for the row the cancel holds, and then finds it CANCELLED, or SCHEDULED still)
        stores.afterCommit(
                () -> {
                    engine.dequeue(instanceId);
                    if (instance.origin() == InstanceOrigin.SERIES) {
                        tasks.apply(instance.taskName()).ifPresent(task -> engine.continueAfterCancel(task, instance));
                    }
                },
                NOTHING);
        return true;
    }

    /**
     * SCHEDULED -&gt; CANCELLED, written at once rather than through the engine's writer: a cancel works on an engine
     * that is not started (a process that only schedules), and the store's condition settles a race with a fire.
     */
    private boolean cancelInStore(String instanceId, int attempt, String reason) {
        return stores.transition(new Transition(
                instanceId,
                InstanceState.SCHEDULED,
                InstanceState.CANCELLED,
                attempt,
                nodeId,
                clock.instant(),
                reason));
    }

    public boolean reschedule(String instanceId, Instant newTime) {
        Instant now = clock.instant();
        Instant due = ScheduleRequests.checkNewTime(instanceId, newTime, now);
        if (!InstanceIds.isWellFormed(instanceId)) {
            return false;
        }
        MemoryTask waiting = memory.pending(instanceId);
        if (waiting != null) {
            return stores.inCallerTransaction()
                    ? rescheduleHeld(instanceId, waiting, due)
                    : memory.reschedule(instanceId, waiting, due);
        }
        Optional<TaskInstance> found = stores.find(instanceId);
        if (found.isEmpty()) {
            return false;
        }
        TaskInstance instance = found.get();
        if (instance.origin() != InstanceOrigin.DELAYED) {
            throw new InvalidScheduleException("Instance " + instanceId + " of task '" + instance.taskName() + "' is a "
                    + instance.origin() + " instance; only scheduled one-shot executions can be rescheduled");
        }
        if (instance.state() != InstanceState.SCHEDULED) {
            return false;
        }
        if (!stores.reschedule(instanceId, instance.scheduledTime(), due, nodeId, now)) {
            return false;
        }
        TaskInstance moved = instance.dueAt(due, nodeId, now);
        // after the commit: one that rolls back leaves the instance in the wheel at its old time
        stores.afterCommit(
                () -> {
                    engine.dequeue(instanceId);
                    tasks.apply(instance.taskName()).ifPresent(task -> enqueueIfCovered(task, moved));
                },
                NOTHING);
        return true;
    }

    /** A MEMORY execution moved inside a caller's transaction: held until it ends, then at its new or old time. */
    private boolean rescheduleHeld(String instanceId, MemoryTask waiting, Instant due) {
        if (!memory.hold(waiting)) {
            return false;
        }
        Instant previous = memory.dueOf(waiting);
        memory.reschedule(instanceId, waiting, due); // held: only its time changes
        stores.afterCommit(() -> memory.release(waiting), () -> {
            memory.reschedule(instanceId, waiting, previous);
            memory.release(waiting);
        });
        return true;
    }

    public Optional<InstanceDetails> find(String instanceId) {
        if (!InstanceIds.isWellFormed(instanceId)) {
            return Optional.empty();
        }
        MemoryTask waiting = memory.pending(instanceId);
        if (waiting != null) {
            return Optional.of(memory.details(instanceId, waiting));
        }
        return stores.find(instanceId).map(instance -> new InstanceDetails(instance, stores.auditTrail(instanceId)));
    }
}
