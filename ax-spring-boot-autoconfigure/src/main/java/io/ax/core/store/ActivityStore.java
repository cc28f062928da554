package io.ax.core.store;

import java.time.Instant;
import java.util.List;

/**
 * The per-minute rollup of what the engines ran (see {@link ActivityRow}), shared by every node on one store, so that
 * an operator's charts show the cluster and not one node's memory. Small by design: a row per process, minute and
 * task that had activity, plus one per process and minute for all its tasks; old rows are deleted by retention.
 * Implementations are thread-safe.
 */
public interface ActivityStore {

    /**
     * Saves the given rows, each replacing the row of the same minute, task, node and writer if there is one.
     *
     * @throws io.ax.core.AxException or a runtime exception of the store when it cannot; nothing is then promised of
     *     the rows, and saving them again is safe
     */
    void save(List<ActivityRow> rows);

    /**
     * The rows of {@code task} (or {@link ActivityRow#ALL_TASKS}) whose minute is in {@code [from, to)}, of every
     * node and writer, in no particular order.
     */
    List<ActivityRow> find(String task, Instant from, Instant to);

    /**
     * Every task's rows whose minute is in {@code [from, to)}, of every node and writer, added up: one {@link
     * ActivityTotals} per task that has a row there ({@link ActivityRow#ALL_TASKS} included), in no particular order;
     * none for a task without rows. One read however many tasks there are, so that a page of all tasks, asked again
     * every few seconds, costs one query.
     */
    List<ActivityTotals> totals(Instant from, Instant to);

    /**
     * Deletes at most {@code limit} rows whose minute is before {@code before}.
     *
     * @return how many were deleted
     */
    int deleteBefore(Instant before, int limit);
}
