package io.ax.core.engine.definitions;

import io.ax.core.AxTask;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tasks this node knows and which of them are paused: the one owner of both sets. Other classes read them
 * through read-only views and change them only through the methods here, so that a reader finds every change in one
 * place (a registration, a runtime definition, a pause taken here or read from the store).
 *
 * <p>Thread-safe: both sets are concurrent; what a change means for the rest of the engine (plans, workflows) is the
 * caller's to do.
 */
public final class TaskRegistry {

    private final Map<String, AxTask> tasks = new ConcurrentHashMap<>();
    private final Map<String, AxTask> tasksView = Collections.unmodifiableMap(tasks);
    private final Set<String> paused = ConcurrentHashMap.newKeySet();
    private final Set<String> pausedView = Collections.unmodifiableSet(paused);

    /** The registered tasks by name: a live, read-only view. */
    public Map<String, AxTask> tasks() {
        return tasksView;
    }

    /** The names of the paused tasks: a live, read-only view. */
    public Set<String> paused() {
        return pausedView;
    }

    /** Whether the task with that name is paused. */
    public boolean isPaused(String name) {
        return paused.contains(name);
    }

    /** Adds a task under a free name; false, and nothing changed, when the name is taken. */
    public boolean add(AxTask task) {
        return tasks.putIfAbsent(task.name(), task) == null;
    }

    /** Takes back a task just added (when what its registration sets off fails); another under its name stays. */
    public void withdraw(AxTask task) {
        tasks.remove(task.name(), task);
    }

    /** Puts a task under its name, replacing any; returns the one it replaced, or null. */
    public AxTask put(AxTask task) {
        return tasks.put(task.name(), task);
    }

    /** Removes the task with that name; returns it, or null when there was none. */
    public AxTask remove(String name) {
        return tasks.remove(name);
    }

    /** Marks a task paused; true when it was not paused before. */
    public boolean pause(String name) {
        return paused.add(name);
    }

    /** Marks a task no longer paused; true when it was paused. */
    public boolean resume(String name) {
        return paused.remove(name);
    }
}
