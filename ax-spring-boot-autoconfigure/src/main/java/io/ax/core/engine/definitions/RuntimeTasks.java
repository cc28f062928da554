package io.ax.core.engine.definitions;

import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.InvalidTaskException;
import io.ax.core.TaskDefinition;
import io.ax.core.UnknownTaskException;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.WorkflowGraph;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.NamedThreadFactory;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.StoredDefinition;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Tasks registered at runtime: stored in the configured store (with an audited history), applied on this node at
 * once and on every other node at its next look (thread {@code ax-definitions}, every heartbeat), and loaded again
 * at every start. A task defined in code ({@code @AxJob}, {@code ax.tasks}, {@link io.ax.core.engine.AxEngine#register(AxTask)}) keeps
 * its name: a runtime definition can neither take nor replace it. An update replaces the task from its next fire
 * time: the leader cancels the fire planned by the old definition and plans the first of the new one.
 *
 * <p>Thread-safe: changes made through this node are serialized by its lock; the store's versions decide between
 * nodes.
 */
public final class RuntimeTasks {

    private static final System.Logger LOG = EngineLog.get();

    /** The engine's registered tasks, as this class changes them. */
    public interface Registry {
        /** The registered tasks now (read only). */
        Map<String, AxTask> tasks();

        /** Before the engine plans anything: a stored definition joins the tasks defined in code. */
        void load(AxTask task);

        /** A runtime task joins this node, as {@link io.ax.core.engine.AxEngine#register} does it. */
        void add(AxTask task);

        /** A runtime task's new definition replaces the old one on this node. */
        void replace(AxTask task, String reason);

        /** A runtime task leaves this node. */
        void remove(String name, String reason);

        /** The tasks that wait for {@code name} in today's workflows. */
        List<String> downstream(String name);
    }

    private final InstanceStore stores;
    private final AxClock clock;
    private final String nodeId;
    private final ExecutorRouter router;
    private final Registry registry;
    /** Runtime task name -> the version this node runs. */
    private final Map<String, Long> applied = new ConcurrentHashMap<>();
    /** Stored definitions this node cannot run (a name taken by code, an executor it lacks): warned once each. */
    private final Set<String> refused = ConcurrentHashMap.newKeySet();
    /** Serializes this node's changes and looks: a definition is applied once, in version order. */
    private final Object lock = new Object();

    private final ScheduledThreadPoolExecutor thread =
            new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("ax-definitions", true));

    public RuntimeTasks(InstanceStore stores, AxClock clock, String nodeId, ExecutorRouter router, Registry registry) {
        this.stores = stores;
        this.clock = clock;
        this.nodeId = nodeId;
        this.router = router;
        this.registry = registry;
    }

    /** Before the engine plans anything: the stored definitions join the tasks defined in code. */
    public void load() {
        synchronized (lock) {
            for (StoredDefinition stored : stores.findDefinitions()) {
                Optional<AxTask> task = readable(stored);
                if (task.isPresent()) {
                    registry.load(task.get());
                    applied.put(stored.name(), stored.version());
                }
            }
        }
    }

    public void start(Duration every) {
        thread.scheduleWithFixedDelay(this::look, every.toNanos(), every.toNanos(), TimeUnit.NANOSECONDS);
    }

    public void stop() {
        thread.shutdownNow();
    }

    public List<TaskDefinition> list() {
        List<TaskDefinition> list = new ArrayList<>();
        for (StoredDefinition stored : stores.findDefinitions()) {
            list.add(new TaskDefinition(
                    TaskDefinitionText.read(stored.definition()), stored.version(), stored.updatedAt(), stored.node()));
        }
        return list;
    }

    public TaskDefinition register(TaskDefinition definition) {
        AxTask task = definition.task();
        synchronized (lock) {
            String name = task.name();
            if (applied.containsKey(name)) {
                throw new AxException("Task '" + name + "' is registered at runtime already; update it instead");
            }
            refuseCodeTask(name);
            check(task, null);
            Instant now = clock.instant();
            StoredDefinition stored = new StoredDefinition(name, TaskDefinitionText.write(task), 1, nodeId, now);
            if (!stores.insertDefinition(stored)) {
                throw new AxException(
                        "Task '" + name + "' was registered at runtime by another node meanwhile; update it instead");
            }
            registry.add(task);
            applied.put(name, 1L);
            LOG.log(
                    Level.INFO,
                    "Task ''{0}'' registered at runtime: {1}",
                    name,
                    task.trigger().describe());
            return new TaskDefinition(task, 1, now, nodeId);
        }
    }

    public TaskDefinition update(TaskDefinition definition) {
        AxTask task = definition.task();
        synchronized (lock) {
            String name = task.name();
            StoredDefinition current = stored(name);
            check(task, name);
            Instant now = clock.instant();
            long version = current.version() + 1;
            StoredDefinition next = new StoredDefinition(name, TaskDefinitionText.write(task), version, nodeId, now);
            if (!stores.updateDefinition(next)) {
                throw new AxException("Task '" + name + "' was changed by another node meanwhile (it is no longer at"
                        + " version " + current.version() + "); read it again and retry");
            }
            registry.replace(task, "definition updated to version " + version);
            applied.put(name, version);
            LOG.log(Level.INFO, "Task ''{0}'' updated at runtime to version {1}: {2}", name, version, describe(task));
            return new TaskDefinition(task, version, now, nodeId);
        }
    }

    public void unregister(String name) {
        synchronized (lock) {
            StoredDefinition current = stored(name);
            List<String> waiting = registry.downstream(name);
            if (!waiting.isEmpty()) {
                throw new InvalidTaskException(
                        name, "dependsOn", "tasks " + waiting + " depend on it; unregister or update them first");
            }
            if (!stores.deleteDefinition(name, current.version(), nodeId, clock.instant())) {
                throw new AxException("Task '" + name + "' was changed by another node meanwhile; try again");
            }
            applied.remove(name);
            registry.remove(name, "task unregistered");
            LOG.log(Level.INFO, "Task ''{0}'' unregistered", name);
        }
    }

    /** On ax-definitions: what other nodes registered, updated or unregistered is applied here. */
    private void look() {
        try {
            synchronized (lock) {
                Map<String, StoredDefinition> stored = new HashMap<>();
                stores.findDefinitions().forEach(d -> stored.put(d.name(), d));
                for (StoredDefinition d : stored.values()) {
                    Long have = applied.get(d.name());
                    if (have != null && have == d.version()) {
                        continue;
                    }
                    Optional<AxTask> task = readable(d);
                    if (task.isEmpty()) {
                        continue;
                    }
                    try {
                        if (have == null) {
                            registry.add(task.get());
                        } else {
                            registry.replace(task.get(), "definition updated to version " + d.version());
                        }
                        applied.put(d.name(), d.version());
                    } catch (RuntimeException e) {
                        refuse(d, e.getMessage());
                    }
                }
                for (String name : new HashSet<>(applied.keySet())) {
                    if (!stored.containsKey(name)) {
                        applied.remove(name);
                        registry.remove(name, "task unregistered");
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "AX could not read the runtime task definitions; retrying: {0}", e.toString());
        }
    }

    /** The stored task, if this node can run it: not a name taken by code, and claimed by one of its executors. */
    private Optional<AxTask> readable(StoredDefinition stored) {
        if (!applied.containsKey(stored.name()) && registry.tasks().containsKey(stored.name())) {
            refuse(stored, "a task defined in code has that name");
            return Optional.empty();
        }
        try {
            AxTask task = TaskDefinitionText.read(stored.definition());
            router.check(task);
            return Optional.of(task);
        } catch (RuntimeException e) {
            refuse(stored, e.getMessage());
            return Optional.empty();
        }
    }

    private void refuse(StoredDefinition stored, String why) {
        if (refused.add(stored.name() + "@" + stored.version())) {
            LOG.log(
                    Level.ERROR,
                    "Runtime task ''{0}'' (version {1}) cannot run on node {2}: {3}",
                    stored.name(),
                    stored.version(),
                    nodeId,
                    why);
        }
    }

    private StoredDefinition stored(String name) {
        for (StoredDefinition d : stores.findDefinitions()) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        refuseCodeTask(name);
        throw new UnknownTaskException(name);
    }

    private void refuseCodeTask(String name) {
        if (registry.tasks().containsKey(name) && !applied.containsKey(name)) {
            throw new AxException("Task '" + name + "' is defined in code (@AxJob, ax.tasks or AxEngine.register);"
                    + " a runtime definition cannot take its name or change it");
        }
    }

    /** The executor's check and the workflow rules, with {@code replacing} (if any) swapped for the task. */
    private void check(AxTask task, String replacing) {
        router.check(task);
        List<AxTask> all = new ArrayList<>(registry.tasks().values());
        if (replacing != null) {
            all.removeIf(t -> t.name().equals(replacing));
        }
        all.add(task);
        WorkflowGraph.of(all);
    }

    private static String describe(AxTask task) {
        return task.type() + " " + task.target() + ", " + task.trigger().describe();
    }
}
