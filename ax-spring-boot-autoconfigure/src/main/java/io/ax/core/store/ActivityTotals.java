package io.ax.core.store;

import java.util.Objects;

/**
 * One task's rows of the activity rollup added up over a range of minutes, every node's and writer's: what {@link
 * ActivityStore#totals} answers, one per task.
 *
 * @param task the task's name, or {@link ActivityRow#ALL_TASKS} for the sum of all tasks
 * @param fires first attempts that started in the range
 * @param successes attempts that succeeded in it
 * @param failures attempts that failed in it (timeouts not included)
 * @param timeouts attempts that timed out in it
 * @param deadLetters instances that went DEAD in it
 */
public record ActivityTotals(String task, long fires, long successes, long failures, long timeouts, long deadLetters) {

    public ActivityTotals {
        Objects.requireNonNull(task, "task");
        if (fires < 0 || successes < 0 || failures < 0 || timeouts < 0 || deadLetters < 0) {
            throw new IllegalArgumentException("totals must not be negative: " + fires + ", " + successes + ", "
                    + failures + ", " + timeouts + ", " + deadLetters);
        }
    }
}
