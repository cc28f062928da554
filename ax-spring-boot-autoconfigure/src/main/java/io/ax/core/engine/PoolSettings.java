package io.ax.core.engine;

/**
 * The size of one execution pool (a bulkhead per task group).
 *
 * @param threads worker threads; at least 1
 * @param queueCapacity dispatched instances that may wait for a thread; at least 0. A dispatch that finds the pool
 *     and its queue full is rejected into the state machine (back to SCHEDULED, re-dispatched later).
 */
public record PoolSettings(int threads, int queueCapacity) {

    public PoolSettings {
        if (threads < 1) {
            throw new IllegalArgumentException("pool threads must be >= 1, was " + threads);
        }
        if (queueCapacity < 0) {
            throw new IllegalArgumentException("pool queue capacity must be >= 0, was " + queueCapacity);
        }
    }

    /** Four threads and a queue of 1,000. */
    public static PoolSettings defaults() {
        return new PoolSettings(4, 1_000);
    }
}
