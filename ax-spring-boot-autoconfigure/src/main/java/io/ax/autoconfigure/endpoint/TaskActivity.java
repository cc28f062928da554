package io.ax.autoconfigure.endpoint;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.engine.EngineObserver;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts, per task, how its attempts ended on this node since it started: what the {@code ax} endpoint shows when
 * the store keeps no activity rollup, or does not answer (see {@link TaskOutcomes}).
 */
final class TaskActivity implements EngineObserver {

    /** Attempts of one task that succeeded, that failed (timeouts included), and instances that went DEAD. */
    record Counts(long successes, long failures, long deadLetters) {

        static final Counts NONE = new Counts(0, 0, 0);
    }

    private record Adders(LongAdder successes, LongAdder failures, LongAdder deadLetters) {
        Adders() {
            this(new LongAdder(), new LongAdder(), new LongAdder());
        }
    }

    private final ConcurrentHashMap<String, Adders> byTask = new ConcurrentHashMap<>();

    @Override
    public void finished(AxTask task, InstanceState outcome, Duration took) {
        Adders a = of(task.name());
        (outcome == InstanceState.SUCCESS ? a.successes() : a.failures()).increment();
    }

    @Override
    public void deadLettered(AxTask task) {
        of(task.name()).deadLetters().increment();
    }

    Counts counts(String taskName) {
        Adders a = byTask.get(taskName);
        return a == null ? Counts.NONE : counts(a);
    }

    /** Every task that ended an attempt or went DEAD here, with its counts. */
    Map<String, Counts> all() {
        Map<String, Counts> all = new HashMap<>();
        byTask.forEach((task, a) -> all.put(task, counts(a)));
        return all;
    }

    private static Counts counts(Adders a) {
        return new Counts(
                a.successes().sum(), a.failures().sum(), a.deadLetters().sum());
    }

    private Adders of(String taskName) {
        Adders a = byTask.get(taskName);
        return a != null ? a : byTask.computeIfAbsent(taskName, k -> new Adders());
    }
}
