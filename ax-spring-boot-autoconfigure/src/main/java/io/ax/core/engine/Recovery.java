package io.ax.core.engine;

import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.StoredTask;
import io.ax.core.trigger.OnDemandTrigger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * At start-up, resumes what the store says is unfinished, so a node that was killed loses nothing:
 *
 * <ul>
 *   <li>SCHEDULED instances due inside the prefetch window go back into the wheel (later ones wait in the store
 *       for the {@link Prefetcher}); a task's pending fire whose time passed by more than the misfire threshold is
 *       handled by the task's misfire policy;
 *   <li>DISPATCHED instances never started: back to SCHEDULED and dispatched again, counting an attempt;
 *   <li>RUNNING instances died with their node: FAILED, then retried or DEAD by the task's retry policy;
 *   <li>RETRYING instances wait out the rest of their back-off;
 *   <li>every task without a pending fire gets its next one (a missed one is a misfire).
 * </ul>
 *
 * Runs once, on the thread that starts the engine, before any fire of this run.
 */
final class Recovery {

    private static final System.Logger LOG = System.getLogger(AxEngine.class.getName());
    private static final Set<InstanceState> IN_FLIGHT =
            EnumSet.of(InstanceState.DISPATCHED, InstanceState.RUNNING, InstanceState.RETRYING);

    private final AxEngine engine;
    private final InstanceStore store;

    Recovery(AxEngine engine) {
        this.engine = engine;
        this.store = engine.stores();
    }

    void run() {
        Instant now = engine.clock().instant();
        Map<String, AxTask> tasks = engine.registered();
        Map<String, StoredTask> stored = new HashMap<>();
        for (StoredTask t : store.findTasks()) {
            stored.put(t.name(), t);
            if (t.paused() && tasks.containsKey(t.name())) {
                engine.paused().add(t.name());
            }
        }
        Map<String, String> triggers = new HashMap<>();
        for (AxTask task : tasks.values()) {
            triggers.put(task.name(), task.trigger().describe());
        }
        store.saveTasks(triggers, now);
        for (String name : engine.paused()) {
            store.setPaused(name, true, now); // paused before the start, when the store had no row for it yet
        }
        Set<String> withPendingFire = new HashSet<>();
        Set<String> unknown = new TreeSet<>();
        List<FirePlanner.Pending> planned = new ArrayList<>();
        int[] resumed = new int[1];
        for (TaskInstance instance : store.findByStates(IN_FLIGHT, Integer.MAX_VALUE)) {
            AxTask task = tasks.get(instance.taskName());
            if (task == null) {
                unknown.add(instance.taskName());
                continue;
            }
            Due due = new Due(task, instance.id(), instance.scheduledTime(), instance.origin());
            resumed[0]++;
            switch (instance.state()) {
                case DISPATCHED -> redispatch(due, instance);
                case RUNNING -> failOrphan(due, instance);
                case RETRYING -> retryLater(due, instance, now);
                default -> throw new IllegalStateException("not an in-flight state: " + instance.state());
            }
        }
        // SCHEDULED instances: only those inside the prefetch window are read; the rest wait in the store
        engine.prefetcher().start(instance -> {
            AxTask task = tasks.get(instance.taskName());
            if (task == null) {
                unknown.add(instance.taskName());
                return;
            }
            resumed[0]++;
            Due due = new Due(task, instance.id(), instance.scheduledTime(), instance.origin());
            if (due.series()) {
                withPendingFire.add(task.name());
                resumePendingFire(due, now, planned);
            } else {
                engine.fires().enqueue(due);
            }
        });
        for (AxTask task : tasks.values()) {
            if (withPendingFire.contains(task.name()) || task.trigger() == OnDemandTrigger.INSTANCE) {
                continue;
            }
            StoredTask storedTask = stored.get(task.name());
            if (storedTask == null || storedTask.nextFireTime() == null) {
                engine.fires().planFirst(task, planned);
            } else if (isPending(task, storedTask.nextFireTime())) {
                continue; // beyond what was loaded: the prefetcher brings it when its time comes near
            } else {
                // its last fire happened, the next was never written: go on from the last
                engine.fires().planNext(task, storedTask.nextFireTime(), now, planned);
            }
        }
        engine.fires().scheduleFires(planned);
        if (resumed[0] > 0) {
            LOG.log(Level.INFO, "AX resumed {0} unfinished instance(s) from the store", resumed[0]);
        }
        if (!unknown.isEmpty()) {
            LOG.log(
                    Level.WARNING,
                    "The store holds unfinished instances of tasks this node does not know: {0}; "
                            + "they stay as they are until a node that knows them starts",
                    unknown);
        }
    }

    /** Whether the task's recorded next fire still waits in the store. */
    private boolean isPending(AxTask task, Instant nextFire) {
        return store.findByKey(task.name(), TaskInstance.fireKey(nextFire))
                .filter(i -> i.state() == InstanceState.SCHEDULED)
                .isPresent();
    }

    private void resumePendingFire(Due due, Instant now, List<FirePlanner.Pending> planned) {
        if (!engine.fires().isMisfire(due.scheduledTime(), now)) {
            engine.fires().enqueue(due);
            return;
        }
        AxTask task = due.task();
        switch (task.misfire()) {
            case SKIP ->
                engine.writer()
                        .move(
                                due.instanceId(),
                                InstanceState.SCHEDULED,
                                InstanceState.CANCELLED,
                                0,
                                "misfire policy SKIP: fire time " + due.scheduledTime() + " passed while no node ran");
            case FIRE_ONCE, FIRE_ALL ->
                engine.fires().enqueue(new Due(task, due.instanceId(), due.scheduledTime(), InstanceOrigin.CATCH_UP));
        }
        engine.fires().planMissed(task, due.scheduledTime(), now, false, planned);
    }

    private void redispatch(Due due, TaskInstance instance) {
        if (!engine.writer()
                .move(
                        instance.id(),
                        InstanceState.DISPATCHED,
                        InstanceState.SCHEDULED,
                        instance.attempt(),
                        "recovered at start-up: dispatched by node " + instance.node() + " but never started")) {
            return;
        }
        engine.dispatcher().markInFlight(due);
        int attempt = instance.attempt() + 1;
        engine.onDispatchThread(() -> engine.dispatcher().dispatch(due, InstanceState.SCHEDULED, attempt));
    }

    private void failOrphan(Due due, TaskInstance instance) {
        engine.dispatcher().markInFlight(due);
        Execution orphan = new Execution(due, instance.attempt());
        engine.runner()
                .afterBadAttempt(
                        orphan,
                        InstanceState.FAILED,
                        "node " + instance.node() + " stopped while running attempt " + instance.attempt(),
                        null,
                        0);
    }

    private void retryLater(Due due, TaskInstance instance, Instant now) {
        engine.dispatcher().markInFlight(due);
        Duration backoff = due.task().retry().delayBeforeRetry(Math.max(1, instance.attempt()));
        Duration left = Duration.between(now, instance.updatedAt().plus(backoff));
        int attempt = instance.attempt() + 1;
        engine.after(
                left.isNegative() ? Duration.ZERO : left,
                () -> engine.dispatcher().dispatch(due, InstanceState.RETRYING, attempt));
    }
}
