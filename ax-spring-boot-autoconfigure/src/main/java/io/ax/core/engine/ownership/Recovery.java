package io.ax.core.engine.ownership;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.work.Dispatcher;
import io.ax.core.engine.work.Execution;
import io.ax.core.engine.work.InstanceRunner;
import io.ax.core.engine.writes.Fence;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.OwnedInstance;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * At start-up, resumes this node's own unfinished work of its last run (same node id), so a node that was killed
 * and restarted loses nothing; never another node's (the owners of their partitions take over the work of nodes
 * that are gone):
 *
 * <ul>
 *   <li>DISPATCHED instances (an earlier version assigned them) never started: given back, SCHEDULED, for the owner
 *       of their partition to claim (see {@link Handback#lastRunsAssignments});
 *   <li>RUNNING instances died with the last run, not by their handler: taken over, and run again at once (or DEAD
 *       once their takeovers are used up; see {@link io.ax.core.engine.work.Takeovers});
 *   <li>RETRYING instances wait out the rest of their back-off.
 * </ul>
 *
 * Also records the task definitions. Runs once, on the thread that starts the engine, before it joins the cluster.
 */
public final class Recovery {

    private static final System.Logger LOG = EngineLog.get();
    /**
     * The states in which an instance belongs to a node (assigned, running, or between an attempt's end and what
     * follows it): what a node leaves behind when it dies, for its own next run or the leader to move on.
     */
    static final Set<InstanceState> IN_FLIGHT = EnumSet.of(
            InstanceState.DISPATCHED,
            InstanceState.RUNNING,
            InstanceState.FAILED,
            InstanceState.TIMEOUT,
            InstanceState.RETRYING);

    /** Runs work on the dispatch thread after a delay, on the engine's wheel. */
    public interface Later {
        void after(Duration delay, Runnable work);
    }

    private final InstanceStore store;
    private final AxClock clock;
    private final String nodeId;
    private final Map<String, AxTask> tasks;
    private final Set<String> paused;
    private final Dispatcher dispatcher;
    private final Handback handback;
    private final InstanceRunner runner;
    private final Later later;

    /**
     * @param tasks the registered tasks (read only)
     * @param paused the names of tasks paused before the start (read only)
     */
    public Recovery(
            InstanceStore store,
            AxClock clock,
            String nodeId,
            Map<String, AxTask> tasks,
            Set<String> paused,
            Dispatcher dispatcher,
            Handback handback,
            InstanceRunner runner,
            Later later) {
        this.store = store;
        this.clock = clock;
        this.nodeId = nodeId;
        this.tasks = tasks;
        this.paused = paused;
        this.dispatcher = dispatcher;
        this.handback = handback;
        this.runner = runner;
        this.later = later;
    }

    public void run() {
        Instant now = clock.instant();
        Map<String, String> triggers = new HashMap<>();
        for (AxTask task : tasks.values()) {
            triggers.put(task.name(), task.trigger().describe());
        }
        store.saveTasks(triggers, now);
        for (String name : paused) {
            store.setPaused(name, true, now); // paused before the start, when the store had no row for it yet
        }
        Set<String> unknown = new TreeSet<>();
        int resumed = 0;
        List<TaskInstance> assigned = new ArrayList<>();
        List<InstanceRunner.LostAttempt> lost = new ArrayList<>();
        for (OwnedInstance o : store.findOwned(IN_FLIGHT, nodeId, Integer.MAX_VALUE)) {
            TaskInstance instance = o.instance();
            if (instance.state() == InstanceState.DISPATCHED) {
                assigned.add(instance); // for the owner of its partition, whether this node knows its task or not
                continue;
            }
            AxTask task = tasks.get(instance.taskName());
            if (task == null) {
                unknown.add(instance.taskName());
                continue;
            }
            Due due = new Due(task, instance);
            resumed++;
            switch (instance.state()) {
                case RUNNING -> lost.add(lostWithLastRun(due, instance, o.epoch()));
                case RETRYING -> retryLater(due, instance, now, o.epoch());
                case FAILED, TIMEOUT -> decideAfterFailure(due, instance, o.epoch());
                default -> throw new IllegalStateException("not an in-flight state: " + instance.state());
            }
        }
        handback.lastRunsAssignments(assigned);
        runner.afterLostAttempts(lost); // together: a killed node may leave thousands claimed into its queues
        if (resumed > 0) {
            LOG.log(Level.INFO, "AX resumed {0} unfinished instance(s) of this node''s last run", resumed);
        }
        if (!unknown.isEmpty()) {
            LOG.log(
                    Level.WARNING,
                    "The store holds unfinished instances of tasks this node does not know: {0}; "
                            + "they stay as they are until a node that knows them starts",
                    unknown);
        }
    }

    private InstanceRunner.LostAttempt lostWithLastRun(Due due, TaskInstance instance, long epoch) {
        dispatcher.markInFlight(due);
        return new InstanceRunner.LostAttempt(
                new Execution(due, instance.attempt(), epoch),
                "node " + nodeId + " stopped while running attempt " + instance.attempt()
                        + " (found RUNNING when the node started again)",
                null,
                Fence.NONE);
    }

    /** Its last run recorded the attempt's failure and stopped before deciding what follows: decided now. */
    private void decideAfterFailure(Due due, TaskInstance instance, long epoch) {
        dispatcher.markInFlight(due);
        runner.retryOrDie(
                new Execution(due, instance.attempt(), epoch),
                instance.state(),
                "attempt " + instance.attempt() + " " + instance.state() + "; node " + nodeId
                        + " stopped before deciding what follows",
                null,
                0,
                null,
                Fence.NONE);
    }

    private void retryLater(Due due, TaskInstance instance, Instant now, long epoch) {
        dispatcher.markInFlight(due);
        Duration backoff = due.task().retry().delayBeforeRetry(Math.max(1, instance.attempt()));
        Duration left = Duration.between(now, instance.updatedAt().plus(backoff));
        int attempt = instance.attempt() + 1;
        later.after(
                left.isNegative() ? Duration.ZERO : left,
                () -> dispatcher.dispatch(due, InstanceState.RETRYING, attempt, epoch));
    }
}
