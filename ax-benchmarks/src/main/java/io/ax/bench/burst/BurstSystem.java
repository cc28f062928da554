package io.ax.bench.burst;

import io.ax.bench.db.Probe;

/** One scheduler draining a burst of one-shot executions that are all due. */
interface BurstSystem {

    /** The column name. */
    String name();

    /**
     * Makes the burst due without running it: the peers and AX PERSISTENT write their rows before the scheduler
     * starts (not timed); AX (MEMORY) builds its engine here and triggers in {@link #start}.
     */
    void prepare(int tasks, int threads, Probe probe) throws Exception;

    /** Starts executing; for AX (MEMORY) this also triggers every execution, so it is part of the measured time. */
    void start() throws Exception;

    /** Whether every execution has left the scheduler's storage (its rows are gone, its instances final). */
    boolean drained() throws Exception;

    /** Stops completely and deletes its rows. */
    void tearDown() throws Exception;
}
