package io.ax.core.engine;

import io.ax.core.AxException;
import io.ax.core.AxExecutor;
import io.ax.core.AxTask;
import io.ax.core.InvalidTaskException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks the executor for a task type: the first executor, in the given order, whose
 * {@link AxExecutor#matchTaskType} accepts it. Thread-safe; the choice per type is remembered.
 */
public final class ExecutorRouter {

    private final List<AxExecutor> executors;
    private final Map<String, AxExecutor> byType = new ConcurrentHashMap<>();

    /** @param executors in order of preference */
    public ExecutorRouter(List<? extends AxExecutor> executors) {
        this.executors = List.copyOf(executors);
    }

    /**
     * The executor for {@code type}.
     *
     * @throws AxException when no executor accepts it
     */
    public AxExecutor route(String type) {
        AxExecutor found = byType.get(type);
        if (found != null) {
            return found;
        }
        for (AxExecutor executor : executors) {
            if (executor.matchTaskType(type)) {
                byType.put(type, executor);
                return executor;
            }
        }
        throw new AxException(noExecutor(type));
    }

    /**
     * Checks that a task can run: an executor claims its type and finds nothing wrong with it ({@link
     * AxExecutor#check}).
     *
     * @throws InvalidTaskException naming the attribute at fault
     */
    public void check(AxTask task) {
        AxExecutor executor;
        try {
            executor = route(task.type());
        } catch (AxException e) {
            throw new InvalidTaskException(task.name(), "type", noExecutor(task.type()));
        }
        executor.check(task);
    }

    private String noExecutor(String type) {
        return "no executor claims task type '" + type + "' (executors: "
                + executors.stream().map(e -> e.getClass().getSimpleName()).toList() + ")";
    }
}
