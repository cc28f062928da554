package io.ax.bench.burst;

import io.ax.bench.db.Probe;

/** One scheduler draining a burst of one-shot executions that are all due. */
interface BurstSystem {

    /** The column name. */
    String name();

    /**
     * Makes the burst due without running it: the peers insert their rows before the scheduler starts (not timed);
     * AX, which has no durable store yet, builds its engine here and schedules in {@link #start}.
     */
    void prepare(int tasks, int threads, Probe probe) throws Exception;

    /** Starts executing; for AX this also triggers every execution, so it is part of the measured time. */
    void start() throws Exception;

    /** Whether every execution has left the scheduler's storage (its rows are gone, its instances final). */
    boolean drained() throws Exception;

    /** Stops completely and deletes its rows. */
    void tearDown() throws Exception;
}
