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
import io.ax.core.engine.writes.InstanceIds;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * What an operator may do to an instance beyond the scheduler's own calls: cancel one that waits for its next
 * attempt, replay a dead one; and say why not, when not. Every state change is a conditional write along the arrows
 * of {@link InstanceState}, audited like any other; each action logs one INFO line. Thread-safe.
 */
final class Operations {

    private static final System.Logger LOG = System.getLogger(AxEngine.class.getName());
    static final String REPLAYED = "replayed by operator";
    static final String CANCELLED = "cancelled by operator";

    private final AxEngine engine;

    Operations(AxEngine engine) {
        this.engine = engine;
    }

    /** @param by who asked, named in the audit row and the log line; null when nobody in particular */
    InstanceDetails cancelWaiting(String instanceId, Operator by) {
        String reason = CANCELLED + named(by);
        TaskInstance instance = find(instanceId);
        InstanceState from = instance.state();
        if (from == InstanceState.SCHEDULED) {
            // the scheduler's cancel knows MEMORY executions in the wheel and lets a series go on
            if (!engine.delayed().cancel(instanceId, reason)) {
                throw changedMeanwhile(instanceId, InstanceState.CANCELLED);
            }
        } else if (from == InstanceState.RETRYING) {
            if (!engine.writer().move(instanceId, from, InstanceState.CANCELLED, instance.attempt(), reason)) {
                throw changedMeanwhile(instanceId, InstanceState.CANCELLED);
            }
            AxTask task = engine.registered().get(instance.taskName());
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
        AxTask task = engine.registered().get(instance.taskName());
        if (task == null) {
            throw new UnknownTaskException(instance.taskName());
        }
        if (!engine.isRunning()) {
            throw new AxException("The AX engine is not running; cannot replay instance " + instanceId);
        }
        // attempt 0: the next dispatch starts a new cycle at attempt 1, with the task's retries afresh
        // this node adopts the instance: it runs the new cycle
        if (!engine.writer()
                .apply(engine.writer()
                        .change(
                                instanceId,
                                InstanceState.DEAD,
                                InstanceState.RETRYING,
                                0,
                                reason + ": a new cycle of attempts")
                        .assignedTo(engine.nodeId(), 0))) {
            throw changedMeanwhile(instanceId, InstanceState.RETRYING);
        }
        engine.stores().deleteDeadLetter(instanceId);
        engine.deadLettersChanged();
        // its death already let a series go on: the replay is a run of its own
        InstanceOrigin origin =
                instance.origin() == InstanceOrigin.SERIES ? InstanceOrigin.ON_DEMAND : instance.origin();
        Due due = new Due(task, instanceId, instance.scheduledTime(), origin, 1, instance.traceParent());
        InstanceDetails replayed = details(instanceId); // as the replay left it, before the new attempt moves it on
        engine.dispatcher().markInFlight(due);
        // its attempts' fencing tokens go on from the epoch its last cycle carried
        long epoch = engine.stores().findAll(List.of(instanceId)).stream()
                .mapToLong(io.ax.core.store.OwnedInstance::epoch)
                .findFirst()
                .orElse(0);
        engine.onDispatchThread(() -> engine.dispatcher().dispatch(due, InstanceState.RETRYING, 1, epoch));
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
        return engine.stores().find(instanceId).orElseThrow(() -> new UnknownInstanceException(instanceId));
    }

    private InstanceDetails details(String instanceId) {
        TaskInstance instance = find(instanceId);
        return new InstanceDetails(instance, engine.stores().auditTrail(instanceId));
    }

    private AxException changedMeanwhile(String instanceId, InstanceState to) {
        InstanceState now =
                engine.stores().find(instanceId).map(TaskInstance::state).orElse(null);
        if (now != null && !now.canMoveTo(to)) {
            return new IllegalTransitionException(instanceId, now, to);
        }
        return new AxException("Instance " + instanceId + " changed state while the operator's action ran; it is now "
                + now + ". Try again");
    }
}
