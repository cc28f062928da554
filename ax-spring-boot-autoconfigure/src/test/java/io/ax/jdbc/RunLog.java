package io.ax.jdbc;

import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The handlers of an outage test: records every attempt it runs (instance, attempt, fire time, when it began) cheaply
 * enough for thousands a second, and behaves per task as the test programs it (succeed by default). Thread-safe.
 */
final class RunLog implements AxExecutor {

    /** What a task does when run. */
    @FunctionalInterface
    interface Behaviour {
        AxResult run(AxContext context) throws Exception;
    }

    /** One attempt that began. */
    record Run(
            String taskName, String instanceId, int attempt, Instant scheduledTime, String nodeId, long startedNanos) {}

    private final Queue<Run> runs = new ConcurrentLinkedQueue<>();
    private final AtomicInteger count = new AtomicInteger();
    private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();

    RunLog when(String taskName, Behaviour behaviour) {
        behaviours.put(taskName, behaviour);
        return this;
    }

    @Override
    public boolean matchTaskType(String taskType) {
        return AxTask.LOCAL.equals(taskType);
    }

    @Override
    public AxResult execute(AxTask task, AxContext context) throws Exception {
        runs.add(new Run(
                context.taskName(),
                context.instanceId(),
                context.attempt(),
                context.scheduledTime(),
                context.nodeId(),
                System.nanoTime()));
        count.incrementAndGet();
        Behaviour behaviour = behaviours.get(task.name());
        return behaviour == null ? AxResult.success() : behaviour.run(context);
    }

    /** How many attempts began so far. */
    int count() {
        return count.get();
    }

    /** Every attempt that began so far. */
    List<Run> runs() {
        return List.copyOf(runs);
    }

    /** Attempts that began at or after {@code sinceNanos} ({@link System#nanoTime()}). */
    List<Run> startedSince(long sinceNanos) {
        return runs.stream().filter(r -> r.startedNanos() - sinceNanos >= 0).toList();
    }

    /** (instance, attempt) pairs that began more than once, with how often. */
    Map<String, Long> attemptsRunTwice() {
        return runs.stream()
                .collect(Collectors.groupingBy(r -> r.instanceId() + " attempt " + r.attempt(), Collectors.counting()))
                .entrySet()
                .stream()
                .filter(e -> e.getValue() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** Trigger fires (task, fire time) whose handler began with more than one instance. */
    Map<String, Long> fireTimesRunByTwoInstances() {
        return runs.stream()
                .collect(Collectors.groupingBy(
                        r -> r.taskName() + " @ " + r.scheduledTime(),
                        Collectors.mapping(Run::instanceId, Collectors.toSet())))
                .entrySet()
                .stream()
                .filter(e -> e.getValue().size() > 1)
                .collect(Collectors.toMap(
                        Map.Entry::getKey, e -> (long) e.getValue().size()));
    }
}
