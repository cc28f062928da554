package io.ax.test;

import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An executor for tests: records every attempt it runs and behaves per task as a test programs it (succeed by
 * default). Thread-safe.
 */
public final class RecordingExecutor implements AxExecutor {

    /** What a task does when run. */
    @FunctionalInterface
    public interface Behaviour {
        AxResult run(AxContext context) throws Exception;
    }

    private final String type;
    private final List<AxContext> runs = new CopyOnWriteArrayList<>();
    private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();

    /** Runs tasks of type {@link AxTask#LOCAL}. */
    public RecordingExecutor() {
        this(AxTask.LOCAL);
    }

    public RecordingExecutor(String type) {
        this.type = type;
    }

    /** Makes task {@code taskName} do {@code behaviour}. */
    public RecordingExecutor when(String taskName, Behaviour behaviour) {
        behaviours.put(taskName, behaviour);
        return this;
    }

    @Override
    public boolean matchTaskType(String taskType) {
        return type.equals(taskType);
    }

    @Override
    public AxResult execute(AxTask task, AxContext context) throws Exception {
        runs.add(context);
        Behaviour behaviour = behaviours.get(task.name());
        return behaviour == null ? AxResult.success() : behaviour.run(context);
    }

    /** Forgets every attempt run so far and every behaviour: as new, for the next test of a class that keeps it. */
    public void reset() {
        runs.clear();
        behaviours.clear();
    }

    /** Every attempt run so far, in start order. */
    public List<AxContext> runs() {
        return List.copyOf(runs);
    }

    /** The attempts of one task. */
    public List<AxContext> runsOf(String taskName) {
        return runs.stream().filter(c -> c.taskName().equals(taskName)).toList();
    }
}
