package io.ax.autoconfigure.endpoint;

import io.ax.core.clock.AxClock;
import io.ax.core.engine.Activity;
import io.ax.core.store.ActivityStore;
import io.ax.core.store.ActivityTotals;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * How each task's attempts ended, as the tasks pages show them: the cluster's over the last {@link #WINDOW}, added up
 * from the per-minute activity rollup every node writes to the store (the minutes the day's charts show). The list of
 * all tasks is one read of the store, however many tasks there are (the dashboard asks again every few seconds), and
 * has each node's counts as it last wrote them, at most its flush interval old, this node's too. One task alone is
 * read as its charts are, through the engine, with this node's freshest counts, so that its page never contradicts
 * its charts. When the store keeps no rollup, or does not answer, the counts are this node's since it started ({@link
 * TaskActivity}), and the read says so. Thread-safe.
 */
final class TaskOutcomes {

    /** How far back the cluster's counts go. */
    static final Duration WINDOW = Duration.ofDays(1);

    private static final long MINUTE_SECONDS = 60;

    /**
     * The counts of one read.
     *
     * @param byTask each task's counts; a task that is not here ended nothing
     * @param cluster true when they are every node's over the last {@link #WINDOW}; false when they are this node's
     *     since it started
     * @param unavailable why the store did not answer, when it did not; null otherwise
     */
    record Read(
            Map<String, TaskActivity.Counts> byTask,
            boolean cluster,
            @Nullable String unavailable) {

        Read {
            byTask = Map.copyOf(byTask);
        }

        TaskActivity.Counts of(String task) {
            return byTask.getOrDefault(task, TaskActivity.Counts.NONE);
        }
    }

    private final @Nullable ActivityStore store;
    private final Function<String, Activity> dayOfTask;
    private final TaskActivity thisNode;
    private final AxClock clock;

    /**
     * @param store the store's activity rollup, empty when it keeps none
     * @param dayOfTask one task's activity over the last {@link #WINDOW} in one bucket, as the engine reads it for
     *     the charts ({@code AxEngine#activity})
     * @param thisNode this node's counts since it started: the answer when the store cannot give the cluster's
     * @param clock where the last 24 hours end
     */
    TaskOutcomes(
            Optional<ActivityStore> store, Function<String, Activity> dayOfTask, TaskActivity thisNode, AxClock clock) {
        this.store = store.orElse(null);
        this.dayOfTask = dayOfTask;
        this.thisNode = thisNode;
        this.clock = clock;
    }

    /** Every task's counts, in one read of the store. */
    Read all() {
        if (store == null) {
            return new Read(thisNode.all(), false, null);
        }
        long now = Math.floorDiv(clock.instant().getEpochSecond(), MINUTE_SECONDS);
        Map<String, TaskActivity.Counts> byTask = new HashMap<>();
        try {
            for (ActivityTotals t : store.totals(from(now), to(now))) {
                byTask.put(t.task(), counts(t.successes(), t.failures() + t.timeouts(), t.deadLetters()));
            }
        } catch (RuntimeException e) {
            return new Read(thisNode.all(), false, e.toString());
        }
        return new Read(byTask, true, null);
    }

    /** One task's counts, in one read of its own rows, with this node's freshest counts. */
    Read of(String task) {
        Activity day = store == null ? null : dayOfTask.apply(task);
        if (day == null || !day.cluster()) {
            return new Read(Map.of(task, thisNode.counts(task)), false, day == null ? null : day.unavailable());
        }
        long successes = 0;
        long failures = 0;
        long deadLetters = 0;
        for (Activity.Bucket b : day.buckets()) {
            successes += b.successes();
            failures += b.failures() + b.timeouts();
            deadLetters += b.deadLetters();
        }
        return new Read(Map.of(task, counts(successes, failures, deadLetters)), true, null);
    }

    /** The first minute of the window: the current minute is its last. */
    private static Instant from(long nowMinute) {
        return Instant.ofEpochSecond((nowMinute - WINDOW.toMinutes() + 1) * MINUTE_SECONDS);
    }

    private static Instant to(long nowMinute) {
        return Instant.ofEpochSecond((nowMinute + 1) * MINUTE_SECONDS);
    }

    private static TaskActivity.Counts counts(long successes, long failures, long deadLetters) {
        return new TaskActivity.Counts(successes, failures, deadLetters);
    }
}
