package io.ax.core.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * The size of one execution pool (a bulkhead per task group).
 *
 * @param threads worker threads; at least 1
 * @param queueCapacity dispatched instances that may wait for a thread; at least 0. A dispatch that finds the pool
 *     and its queue full is rejected into the state machine (back to SCHEDULED, re-dispatched later).
 * @param virtualThreads whether the workers are virtual threads (Java 21 and later). The pool's limit holds as it
 *     does for platform threads: at most {@code threads} attempts run at once, the rest wait in the queue; what
 *     changes is that an attempt blocked on I/O holds no carrier thread, so a group of slow HTTP or JDBC calls can
 *     be given hundreds of workers cheaply. Timeouts and stops interrupt them as they do platform threads.
 * @param overtakeLimit how long an instance waiting in the queue may be overtaken by instances of higher priority:
 *     the queue starts the highest priority first (equal priorities in the order they came), but an instance that
 *     has waited this long goes before every instance that came after it, whatever their priority. So a low
 *     priority is delayed by at most this, plus what came before it; never starved. Positive.
 * @param clusterLimit at most this many attempts of the group run at once on all nodes together (a permit each, kept
 *     in the store); 0 for no limit beyond each node's {@code threads}
 * @param rate null for none; otherwise at most so many attempts of the group start in any window, on all nodes
 *     together
 */
public record PoolSettings(
        int threads,
        int queueCapacity,
        boolean virtualThreads,
        Duration overtakeLimit,
        int clusterLimit,
        io.ax.core.Rate rate) {

    /** How long a waiting instance may be overtaken by higher priorities, unless a pool says otherwise. */
    public static final Duration DEFAULT_OVERTAKE_LIMIT = Duration.ofSeconds(30);

    public PoolSettings {
        if (threads < 1) {
            throw new IllegalArgumentException("pool threads must be >= 1, was " + threads);
        }
        if (queueCapacity < 0) {
            throw new IllegalArgumentException("pool queue capacity must be >= 0, was " + queueCapacity);
        }
        if (virtualThreads && !virtualThreadsAvailable()) {
            throw new IllegalArgumentException("a pool of virtual threads needs Java 21 or later; this JVM is Java "
                    + Runtime.version().feature());
        }
        Objects.requireNonNull(overtakeLimit, "overtakeLimit");
        if (overtakeLimit.isZero() || overtakeLimit.isNegative()) {
            throw new IllegalArgumentException("pool overtake limit must be positive, was " + overtakeLimit);
        }
        if (clusterLimit < 0) {
            throw new IllegalArgumentException("pool cluster limit must be 0 (none) or more, was " + clusterLimit);
        }
    }

    /** A pool without a cluster-wide limit. */
    public PoolSettings(int threads, int queueCapacity, boolean virtualThreads, Duration overtakeLimit) {
        this(threads, queueCapacity, virtualThreads, overtakeLimit, 0, null);
    }

    /** Whether the group is limited across the cluster: at once, or per window. */
    public boolean limitedAcrossTheCluster() {
        return clusterLimit > 0 || rate != null;
    }

    /** A pool of platform threads with the default overtake limit. */
    public PoolSettings(int threads, int queueCapacity) {
        this(threads, queueCapacity, false);
    }

    /** A pool with the default overtake limit. */
    public PoolSettings(int threads, int queueCapacity, boolean virtualThreads) {
        this(threads, queueCapacity, virtualThreads, DEFAULT_OVERTAKE_LIMIT);
    }

    /** The same pool, on virtual threads or not. */
    public PoolSettings virtualThreads(boolean virtual) {
        return new PoolSettings(threads, queueCapacity, virtual, overtakeLimit, clusterLimit, rate);
    }

    /** The same pool with another overtake limit. */
    public PoolSettings overtakeLimit(Duration limit) {
        return new PoolSettings(threads, queueCapacity, virtualThreads, limit, clusterLimit, rate);
    }

    /** The same pool with a cluster-wide limit; 0 for none. */
    public PoolSettings clusterLimit(int limit) {
        return new PoolSettings(threads, queueCapacity, virtualThreads, overtakeLimit, limit, rate);
    }

    /** The same pool with a cluster-wide rate; null for none. */
    public PoolSettings rate(io.ax.core.Rate limit) {
        return new PoolSettings(threads, queueCapacity, virtualThreads, overtakeLimit, clusterLimit, limit);
    }

    /** Whether this JVM runs virtual threads (Java 21 and later). */
    public static boolean virtualThreadsAvailable() {
        return Runtime.version().feature() >= 21;
    }

    /** Four threads and a queue of 1,000. */
    public static PoolSettings defaults() {
        return new PoolSettings(4, 1_000);
    }
}
