package io.ax.core.engine;

import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.IllegalTransitionException;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.UnknownInstanceException;
import io.ax.core.UnknownTaskException;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.StoredTask;
import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an operator may do: pause and resume a task's trigger, cancel an instance that waits, replay a dead one.
 * Every state change is a conditional write along the arrows of {@link InstanceState}, audited like any other.
 * Each action logs one INFO line. Thread-safe.
 */
final class Operations {

    private static final System.Logger LOG = System.getLogger(AxEngine.class.getName());
    static final String REPLAYED = "replayed by operator: a new cycle of attempts";
    static final String CANCELLED = "cancelled by operator";
    static final String PAUSED = "task paused";

    private final AxEngine engine;
    private final InstanceStore store;
    /** Names of paused tasks; the store keeps the flag across restarts. */
    private final Set<String> paused = ConcurrentHashMap.newKeySet();

    Operations(AxEngine engine) {
        this.engine = engine;
        this.store = engine.store();
    }

    /** At start: paused flags survive a restart. */
    void loadPaused() {
        for (StoredTask t : store.findTasks()) {
            if (t.paused()) {
                paused.add(t.name());
            }
        }
    }

    boolean isPaused(String taskName) {
        return paused.contains(taskName);
    }

    void pause(String taskName) {
        requireTask(taskName);
        paused.add(taskName);
        store.setPaused(taskName, true, engine.clock().instant());
        LOG.log(Level.INFO, "Task ''{0}'' paused by operator", taskName);
    }

    void resume(String taskName) {
        requireTask(taskName);
        paused.remove(taskName);
        store.setPaused(taskName, false, engine.clock().instant());
        LOG.log(Level.INFO, "Task ''{0}'' resumed by operator", taskName);
    }

    TaskInstance cancel(String instanceId) {
        TaskInstance instance = find(instanceId);
        InstanceState from = instance.state();
        if (!from.canMoveTo(InstanceState.CANCELLED)) {
            throw new IllegalTransitionException(instanceId, from, InstanceState.CANCELLED);
        }
        if (!engine.move(instanceId, from, InstanceState.CANCELLED, instance.attempt(), CANCELLED)) {
            throw changedMeanwhile(instanceId, "cancelled");
        }
        AxTask task = engine.registered().get(instance.taskName());
        if (task != null) {
            // frees a non-overlapping task's slot, and a fixed-delay series goes on from now
            engine.ended(new Due(task, instanceId, instance.scheduledTime(), origin(instance)));
        }
        LOG.log(Level.INFO, "Instance {0} of task ''{1}'' cancelled by operator", instanceId, instance.taskName());
        return find(instanceId);
    }

    TaskInstance replay(String instanceId) {
        TaskInstance instance = find(instanceId);
        if (instance.state() != InstanceState.DEAD) {
            throw new IllegalTransitionException(instanceId, instance.state(), InstanceState.RETRYING);
        }
        AxTask task = requireTask(instance.taskName());
        if (!engine.isRunning()) {
            throw new AxException("The AX engine is not running; cannot replay instance " + instanceId);
        }
        // attempt 0: the next dispatch starts a new cycle at attempt 1, with the task's retries afresh
        if (!engine.move(instanceId, InstanceState.DEAD, InstanceState.RETRYING, 0, REPLAYED)) {
            throw changedMeanwhile(instanceId, "replayed");
        }
        store.deleteDeadLetter(instanceId);
        // not SERIES: its death already let the series go on
        Due due = new Due(task, instanceId, instance.scheduledTime(), Due.Origin.ON_DEMAND);
        engine.dispatcher().markInFlight(due);
        engine.onDispatchThread(() -> engine.dispatcher().dispatch(due, InstanceState.RETRYING, 1));
        LOG.log(Level.INFO, "Instance {0} of task ''{1}'' replayed by operator", instanceId, task.name());
        return find(instanceId);
    }

    private AxTask requireTask(String taskName) {
        AxTask task = engine.registered().get(taskName);
        if (task == null) {
            throw new UnknownTaskException(taskName);
        }
        return task;
    }

    private TaskInstance find(String instanceId) {
        return store.find(instanceId).orElseThrow(() -> new UnknownInstanceException(instanceId));
    }

    /** A series fire is the task's pending fire: its scheduled time is the task's next fire time. */
    private Due.Origin origin(TaskInstance instance) {
        return store.findTask(instance.taskName())
                        .map(StoredTask::nextFireTime)
                        .filter(instance.scheduledTime()::equals)
                        .isPresent()
                ? Due.Origin.SERIES
                : Due.Origin.ON_DEMAND;
    }

    private AxException changedMeanwhile(String instanceId, String action) {
        InstanceState now = store.find(instanceId).map(TaskInstance::state).orElse(null);
        return new AxException("Instance " + instanceId + " changed while it was being " + action + "; it is now " + now
                + ". Try again");
    }
}
