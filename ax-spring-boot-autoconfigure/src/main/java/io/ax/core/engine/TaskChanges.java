package io.ax.core.engine;

import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.definitions.TaskRegistry;
import io.ax.core.engine.planning.FirePlanner;
import io.ax.core.engine.terms.DecisionTerms;
import io.ax.core.engine.workflows.Workflows;
import io.ax.core.engine.writes.StoreRouter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * A task's arrival, change and departure on this node, at any time of the engine's life: the checks a task must pass
 * here (an executor for its target, what a transactional task needs, workflows that stay valid), the registry and
 * the workflow graph, and, once the engine runs, the store's record of the task and its fires where this node decides
 * its series. Called by the application's thread (a registration) or the runtime definitions' reader.
 */
final class TaskChanges {

    private final ExecutorRouter router;
    private final TaskRegistry registry;
    /** The registered tasks, read only: {@link #registry}'s. */
    private final Map<String, AxTask> tasks;

    private final Workflows workflows;
    private final StoreRouter stores;
    private final AxClock clock;
    private final FirePlanner fires;
    private final DecisionTerms terms;
    /** Whether this engine runs attempts in the store's transactions (it has a transaction manager). */
    private final boolean transactional;
    /** Whether the store keeps permits of cluster-wide limits. */
    private final boolean permits;
    /** Whether the engine runs: before, a task's first fire is planned at the start. */
    private final BooleanSupplier started;

    TaskChanges(
            ExecutorRouter router,
            TaskRegistry registry,
            Workflows workflows,
            StoreRouter stores,
            AxClock clock,
            FirePlanner fires,
            DecisionTerms terms,
            boolean transactional,
            boolean permits,
            BooleanSupplier started) {
        this.permits = permits;
        this.router = router;
        this.registry = registry;
        this.tasks = registry.tasks();
        this.workflows = workflows;
        this.stores = stores;
        this.clock = clock;
        this.fires = fires;
        this.terms = terms;
        this.transactional = transactional;
        this.started = started;
    }

    /**
     * A new task on this node; once the engine runs, recorded in the store and its first fire planned.
     *
     * @throws io.ax.core.InvalidTaskException when no executor accepts its type, the executor finds it cannot run, or
     *     it is transactional where this engine cannot be
     * @throws AxException when the name is taken
     */
    void add(AxTask task) {
        Objects.requireNonNull(task, "task");
        router.check(task);
        checkTransactional(task);
        checkLimits(task);
        if (!registry.add(task)) {
            throw new AxException("A task named '" + task.name() + "' is already registered");
        }
        if (started.getAsBoolean()) {
            try {
                workflows.graph(WorkflowGraph.of(tasks.values()));
            } catch (RuntimeException e) {
                registry.withdraw(task);
                throw e;
            }
            stores.saveTask(task.name(), task.trigger().describe(), clock.instant());
            List<FirePlanner.Pending> first = new ArrayList<>();
            fires.planFirst(task, first);
            fires.scheduleFires(first);
        }
    }

    /** A transactional task needs the store's transactions, and its instances in the store. */
    private void checkTransactional(AxTask task) {
        if (!task.transactional()) {
            return;
        }
        if (!transactional) {
            throw new io.ax.core.InvalidTaskException(
                    task.name(),
                    "transactional",
                    "its attempts run in a transaction of AX's database, and this engine has none: it needs a JDBC"
                            + " store and a transaction manager on the store's DataSource");
        }
        if (task.durability() == Durability.MEMORY) {
            throw new io.ax.core.InvalidTaskException(
                    task.name(),
                    "transactional",
                    "a MEMORY task has no row in the database to commit its success with; make it PERSISTENT");
        }
    }

    /** A task limited across the cluster needs the store's permits, and its instances in the store. */
    private void checkLimits(AxTask task) {
        if (!task.limits().any()) {
            return;
        }
        String attribute = task.limits().mutex() != null ? "mutex" : "maxConcurrent";
        if (!permits) {
            throw new io.ax.core.InvalidTaskException(
                    task.name(),
                    attribute,
                    "its limit holds across the cluster with permits kept in the store, and this engine's store keeps"
                            + " none (the JDBC and in-memory stores do)");
        }
        if (task.durability() == Durability.MEMORY) {
            throw new io.ax.core.InvalidTaskException(
                    task.name(),
                    attribute,
                    "a MEMORY task runs in this process only, where no other node can see its permits; make it"
                            + " PERSISTENT");
        }
    }

    /**
     * A runtime task's new definition replaces the old one on this node. If this node decides its series, the fire the
     * old one planned is cancelled and the new one's first fire planned: the change takes effect from its next fire
     * time.
     */
    void replace(AxTask task, String reason) {
        router.check(task);
        checkLimits(task);
        Map<String, AxTask> next = new java.util.HashMap<>(tasks);
        next.put(task.name(), task);
        WorkflowGraph graph = WorkflowGraph.of(next.values());
        AxTask old = registry.put(task);
        workflows.graph(graph);
        if (!started.getAsBoolean()) {
            return;
        }
        stores.saveTask(task.name(), task.trigger().describe(), clock.instant());
        if (terms.epochFor(task.name()) > 0) {
            if (old != null) {
                fires.cancelPending(old, reason + "; the new definition plans its own fires");
            }
            List<FirePlanner.Pending> first = new ArrayList<>();
            fires.planFirst(task, first);
            fires.scheduleFires(first);
        }
    }

    /** A runtime task leaves this node; if this node decides its series, its pending fires are cancelled. */
    void remove(String name, String reason) {
        AxTask old = registry.remove(name);
        if (old == null) {
            return;
        }
        workflows.graph(WorkflowGraph.of(tasks.values()));
        if (started.getAsBoolean() && terms.epochFor(name) > 0) {
            fires.cancelPending(old, reason);
        }
    }
}
