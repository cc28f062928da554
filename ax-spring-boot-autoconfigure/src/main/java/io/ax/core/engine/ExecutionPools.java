package io.ax.core.engine;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One bounded pool per task group, so a slow group cannot starve the others. Threads are named
 * {@code ax-<group>-<n>}. Thread-safe.
 */
final class ExecutionPools {

    private final Map<String, PoolSettings> configured;
    private final PoolSettings fallback;
    private final ConcurrentHashMap<String, ThreadPoolExecutor> pools = new ConcurrentHashMap<>();

    ExecutionPools(Map<String, PoolSettings> configured, PoolSettings fallback) {
        this.configured = Map.copyOf(configured);
        this.fallback = fallback;
    }

    /**
     * Runs {@code work} in the group's pool.
     *
     * @throws RejectedExecutionException when the pool's threads are busy and its queue is full, or it is shut down
     */
    void submit(String group, Runnable work) {
        pools.computeIfAbsent(group, this::create).execute(work);
    }

    PoolSettings settings(String group) {
        return configured.getOrDefault(group, fallback);
    }

    private ThreadPoolExecutor create(String group) {
        PoolSettings s = settings(group);
        BlockingQueue<Runnable> queue =
                s.queueCapacity() == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(s.queueCapacity());
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                s.threads(),
                s.threads(),
                60,
                TimeUnit.SECONDS,
                queue,
                new NamedThreadFactory("ax-" + group + "-", false),
                new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Stops taking work, lets running work finish for up to {@code awaitNanos}, then interrupts what remains. */
    void shutdown(long awaitNanos) {
        pools.values().forEach(ThreadPoolExecutor::shutdown);
        long deadline = System.nanoTime() + awaitNanos;
        for (ThreadPoolExecutor pool : pools.values()) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !pool.awaitTermination(left, TimeUnit.NANOSECONDS)) {
                    pool.shutdownNow();
                }
            } catch (InterruptedException e) {
                pool.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Instances executing right now, over all pools. */
    int active() {
        return pools.values().stream()
                .mapToInt(ThreadPoolExecutor::getActiveCount)
                .sum();
    }
}
