package io.ax.core.engine;

import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.IllegalTransitionException;
import io.ax.core.InstanceDetails;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.Operator;
import io.ax.core.TaskInstance;
import io.ax.core.UnknownInstanceException;
import io.ax.core.UnknownTaskException;
import io.ax.core.engine.scheduling.DelayedTasks;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.work.Dispatcher;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.logging.Loggers;
import io.ax.core.store.InstanceStore;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;

/**
 * What an operator may do to an instance beyond the scheduler's own calls: cancel one that waits for its next
 * attempt, replay a dead one; and say why not, when not. Every state change is a conditional write along the arrows
 * of {@link InstanceState}, audited like any other; each action logs one INFO line. Thread-safe.
 */
final class Operations {

    private static final System.Logger LOG = Loggers.get(AxEngine.class.getName());
    static final String REPLAYED = "replayed by operator";
    static final String CANCELLED = "cancelled by operator";

    /** What an operator's action needs of the rest of the engine. */
    interface Engine {
        boolean isRunning();

        /** An instance reached a final state: a non-overlapping task's slot frees, a fixed-delay series goes on. */
        void ended(Due due);

        /** The dead letters changed: the figures health shows are read again. */
        void deadLettersChanged();

        void onDispatchThread(Runnable work);
    }

    private final InstanceStore stores;
    private final String nodeId;
    private final Map<String, AxTask> tasks;
    private final StateWriter writer;
    private final DelayedTasks delayed;
    private final Dispatcher dispatcher;
    private final Engine engine;

    /** @param tasks the registered tasks (read only) */
    Operations(
            InstanceStore stores,
            String nodeId,
            Map<String, AxTask> tasks,
            StateWriter writer,
            DelayedTasks delayed,
            Dispatcher dispatcher,
            Engine engine) {
        this.stores = stores;
        this.nodeId = nodeId;
        this.tasks = tasks;
        this.writer = writer;
        this.delayed = delayed;
        this.dispatcher = dispatcher;
        this.engine = engine;
    }

    /** @param by who asked, named in the audit row and the log line; null when nobody in particular */
    InstanceDetails cancelWaiting(String instanceId, Operator by) {
        String reason = CANCELLED + named(by);
        TaskInstance instance = find(instanceId);
        InstanceState from = instance.state();
        if (from == InstanceState.SCHEDULED) {
            // the scheduler's cancel knows MEMORY executions in the wheel and lets a series go on
            if (!delayed.cancel(instanceId, reason)) {
                throw changedMeanwhile(instanceId, InstanceState.CANCELLED);
            }
        } else if (from == InstanceState.RETRYING) {
            if (!writer.move(instanceId, from, InstanceState.CANCELLED, instance.attempt(), reason)) {
                throw changedMeanwhile(instanceId, InstanceState.CANCELLED);
            }
            AxTask task = tasks.get(instance.taskName());
            if (task != null) {
                // frees a non-overlapping task's slot, and a fixed-delay series goes on from now
                engine.ended(new Due(task, instance));
            }
        } else {
            throw new IllegalTransitionException(instanceId, from, InstanceState.CANCELLED);
        }
        LOG.log(Level.INFO, "Instance {0} of task ''{1}'' {2}", instanceId, instance.taskName(), reason);
        return details(instanceId);
    }

    /** @param by who asked, named in the audit row and the log line; null when nobody in particular */
    InstanceDetails replay(String instanceId, Operator by) {
        String reason = REPLAYED + named(by);
        TaskInstance instance = find(instanceId);
        if (instance.state() != InstanceState.DEAD) {
            throw new IllegalTransitionException(instanceId, instance.state(), InstanceState.RETRYING);
        }
        AxTask task = tasks.get(instance.taskName());
        if (task == null) {
            throw new UnknownTaskException(instance.taskName());
        }
        if (!engine.isRunning()) {
            throw new AxException("The AX engine is not running; cannot replay instance " + instanceId);
        }
        // attempt 0: the next dispatch starts a new cycle at attempt 1, with the task's retries afresh
        // this node adopts the instance: it runs the new cycle
        if (!writer.apply(writer.change(
                        instanceId, InstanceState.DEAD, InstanceState.RETRYING, 0, reason + ": a new cycle of attempts")
                .assignedTo(nodeId, 0))) {
            throw changedMeanwhile(instanceId, InstanceState.RETRYING);
        }
        stores.deleteDeadLetter(instanceId);
        engine.deadLettersChanged();
        // its death already let a series go on: the replay is a run of its own
        InstanceOrigin origin =
                instance.origin() == InstanceOrigin.SERIES ? InstanceOrigin.ON_DEMAND : instance.origin();
        Due due = new Due(task, instance, 1).as(origin);
        InstanceDetails replayed = details(instanceId); // as the replay left it, before the new attempt moves it on
        dispatcher.markInFlight(due);
        // its attempts' fencing tokens go on from the epoch its last cycle carried
        long epoch = stores.findAll(List.of(instanceId)).stream()
                .mapToLong(io.ax.core.store.OwnedInstance::epoch)
                .findFirst()
                .orElse(0);
        engine.onDispatchThread(() -> dispatcher.dispatch(due, InstanceState.RETRYING, 1, epoch));
        LOG.log(Level.INFO, "Instance {0} of task ''{1}'' {2}", instanceId, task.name(), reason);
        return replayed;
    }

    private static String named(Operator by) {
        return by == null ? "" : " " + by.describe();
    }

    private TaskInstance find(String instanceId) {
        if (!InstanceIds.isWellFormed(instanceId)) {
            throw new UnknownInstanceException(instanceId); // garbage never reaches a store's query
        }
        return stores.find(instanceId).orElseThrow(() -> new UnknownInstanceException(instanceId));
    }

    private InstanceDetails details(String instanceId) {
        TaskInstance instance = find(instanceId);
        return new InstanceDetails(instance, stores.auditTrail(instanceId));
    }

    private AxException changedMeanwhile(String instanceId, InstanceState to) {
        InstanceState now = stores.find(instanceId).map(TaskInstance::state).orElse(null);
        if (now != null && !now.canMoveTo(to)) {
            return new IllegalTransitionException(instanceId, now, to);
        }
        return new AxException("Instance " + instanceId + " changed state while the operator's action ran; it is now "
                + now + ". Try again");
    }
}
