package io.ax.core.engine;

import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.Operator;
import io.ax.core.UnknownTaskException;
import io.ax.core.clock.AxClock;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.definitions.TaskRegistry;
import io.ax.core.engine.ownership.Leadership;
import io.ax.core.engine.planning.FirePlanner;
import io.ax.core.engine.terms.DecisionTerms;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.EngineThreads;
import io.ax.core.engine.work.Dispatcher;
import io.ax.core.engine.work.RunParams;
import io.ax.core.engine.writes.StoreRouter;
import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * What an application or an operator asks of a task on this node: a run now, a pause, a resume, each for the whole
 * cluster. A run now is written to the store and dispatched here when this node decides its task's series, else its
 * owner is woken; a pause and a resume are recorded in the store, which every node reads within a heartbeat. Called
 * from any thread.
 */
final class TaskActions {

    private static final System.Logger LOG = Loggers.get(AxEngine.class.getName());

    private final TaskRegistry registry;
    private final ExecutorRouter router;
    private final StoreRouter stores;
    private final AxClock clock;
    private final FirePlanner fires;
    private final DecisionTerms terms;
    private final Dispatcher dispatcher;
    private final EngineThreads threads;
    private final WakeUps wakeUps;
    private final Leadership leadership;
    /** Whether the engine runs: a run now needs it; a pause or resume before the start is only recorded. */
    private final BooleanSupplier started;

    TaskActions(
            TaskRegistry registry,
            ExecutorRouter router,
            StoreRouter stores,
            AxClock clock,
            FirePlanner fires,
            DecisionTerms terms,
            Dispatcher dispatcher,
            EngineThreads threads,
            WakeUps wakeUps,
            Leadership leadership,
            BooleanSupplier started) {
        this.registry = registry;
        this.router = router;
        this.stores = stores;
        this.clock = clock;
        this.fires = fires;
        this.terms = terms;
        this.dispatcher = dispatcher;
        this.threads = threads;
        this.wakeUps = wakeUps;
        this.leadership = leadership;
        this.started = started;
    }

    /** @see AxEngine#triggerNow(String, Map, Operator) */
    String runNow(String taskName, Map<String, String> params, Operator by) {
        Objects.requireNonNull(params, "params");
        AxTask task = known(taskName);
        RunParams.apply(task, params, router);
        if (!started.getAsBoolean()) {
            throw new AxException("The AX engine is not running; cannot trigger '" + taskName + "'");
        }
        Instant now = clock.instant();
        String reason = (params.isEmpty()
                        ? "triggered on demand"
                        : "triggered on demand with parameters " + new java.util.TreeMap<>(params).keySet())
                + byWhom(by);
        List<Due> written = fires.write(List.of(new FirePlanner.Pending(
                task, now, InstanceOrigin.ON_DEMAND, reason, params.isEmpty() ? null : RunParams.encode(params))));
        Due due = written.get(0);
        if (terms.epochFor(due.partitionKey()) > 0) {
            dispatcher.expect(due);
            threads.onDispatchThread(() -> dispatcher.dispatchFresh(due));
        } else {
            wakeUps.signal(List.of(WakeUps.LEADER)); // the owner of its partition loads it now
        }
        if (by != null) {
            LOG.log(
                    Level.INFO,
                    "Task ''{0}'' triggered by operator {1}: instance {2}",
                    taskName,
                    by.describe(),
                    due.instanceId());
        }
        return due.instanceId();
    }

    /** @see AxEngine#pause(String, Operator) */
    void pause(String taskName, Operator by) {
        AxTask task = known(taskName);
        registry.pause(taskName);
        Instant now = clock.instant();
        if (!stores.setPaused(taskName, true, now)) {
            stores.saveTask(taskName, task.trigger().describe(), now);
            stores.setPaused(taskName, true, now);
        }
        int cancelled =
                fires.cancelPending(task, "task paused" + byWhom(by) + "; its series goes on when it is resumed");
        LOG.log(Level.INFO, "Task ''{0}'' paused{1} ({2} pending fire(s) cancelled)", taskName, byWhom(by), cancelled);
    }

    /** @see AxEngine#resume(String, Operator) */
    void resume(String taskName, Operator by) {
        AxTask task = known(taskName);
        stores.setPaused(taskName, false, clock.instant());
        if (registry.resume(taskName) && started.getAsBoolean()) {
            leadership.resumed(task, "resumed" + byWhom(by));
        }
        LOG.log(Level.INFO, "Task ''{0}'' resumed{1}", taskName, byWhom(by));
    }

    private AxTask known(String taskName) {
        AxTask task = registry.tasks().get(Objects.requireNonNull(taskName, "taskName"));
        if (task == null) {
            throw new UnknownTaskException(taskName);
        }
        return task;
    }

    /** How an audit reason names who asked: {@code " by operator 'alice' from 10.0.0.7"}, or nothing. */
    static String byWhom(Operator by) {
        return by == null ? "" : " by operator " + by.describe();
    }
}
