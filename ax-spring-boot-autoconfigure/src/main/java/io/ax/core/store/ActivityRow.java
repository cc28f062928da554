package io.ax.core.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One minute of what one engine process ran of one task (or of all its tasks), as it keeps it in the store: the
 * rollup behind the cluster's activity charts. Each process writes only its own rows, with the whole minute's counts
 * so far (never a difference), so a write repeated after a doubtful commit changes nothing.
 *
 * @param minute the minute's start, a whole minute since the epoch
 * @param task the task's name, or {@link #ALL_TASKS} for the sum of all the process's tasks
 * @param node the node id of the process
 * @param writer the process's random id: a restarted node writes rows of its own beside its earlier run's
 * @param fires first attempts that started in the minute
 * @param successes attempts that succeeded in it
 * @param failures attempts that failed in it (timeouts not included)
 * @param timeouts attempts that timed out in it
 * @param deadLetters instances that went DEAD in it
 * @param lateness the fires' lateness as the engine encodes its histogram (empty without fires); the store keeps
 *     the text as it is
 */
public record ActivityRow(
        Instant minute,
        String task,
        String node,
        String writer,
        long fires,
        long successes,
        long failures,
        long timeouts,
        long deadLetters,
        String lateness) {

    /** The task name of a row that sums all of a process's tasks; no task can have it (see {@code AxTask}). */
    public static final String ALL_TASKS = "*";

    /** The longest lateness text a store must keep. */
    public static final int MAX_LATENESS_CHARS = 4000;

    public ActivityRow {
        Objects.requireNonNull(minute, "minute");
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(lateness, "lateness");
        if (minute.getEpochSecond() % 60 != 0 || minute.getNano() != 0) {
            throw new IllegalArgumentException("minute must be a whole minute, was " + minute);
        }
        if (fires < 0 || successes < 0 || failures < 0 || timeouts < 0 || deadLetters < 0) {
            throw new IllegalArgumentException("counts must not be negative: " + fires + ", " + successes + ", "
                    + failures + ", " + timeouts + ", " + deadLetters);
        }
        if (lateness.length() > MAX_LATENESS_CHARS) {
            throw new IllegalArgumentException(
                    "lateness must be at most " + MAX_LATENESS_CHARS + " characters, was " + lateness.length());
        }
    }
}
