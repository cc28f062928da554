package io.ax.bench.recurring;

import io.ax.bench.db.Probe;

/** One scheduler under recurring load: set up (not timed), started, measured, stopped and cleaned away. */
interface RecurringSystem {

    /** The column name. */
    String name();

    /** Whether a thread belongs to this system (for its CPU time). */
    boolean owns(String threadName);

    /** Creates its storage and its tasks, not yet firing; the handlers report to {@code probe}. */
    void setUp(Load load, int threads, Probe probe) throws Exception;

    /** Starts firing. */
    void start() throws Exception;

    /** Stops completely and deletes its rows. */
    void tearDown() throws Exception;
}
