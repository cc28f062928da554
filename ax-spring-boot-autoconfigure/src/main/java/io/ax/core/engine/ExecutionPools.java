package io.ax.core.engine;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
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
    /**
     * Per group, the places (threads plus queue) not yet promised: an instance is claimed only with a place
     * reserved, so a claimed instance always finds room in its pool.
     */
    private final ConcurrentHashMap<String, Semaphore> places = new ConcurrentHashMap<>();

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

    /** Reserves a place in the group's pool; false when every place is taken or promised. */
    boolean tryReserve(String group) {
        return places(group).tryAcquire();
    }

    /** Gives back a place reserved but not used. */
    void unreserve(String group) {
        places(group).release();
    }

    /** Runs {@code work} on a place reserved with {@link #tryReserve}; the place is free again when it ends. */
    void submitReserved(String group, Runnable work) {
        Semaphore free = places(group);
        try {
            pools.computeIfAbsent(group, this::create).execute(() -> {
                try {
                    work.run();
                } finally {
                    free.release();
                }
            });
        } catch (RejectedExecutionException e) {
            free.release();
            throw e;
        }
    }

    /** The groups with their own settings, and the default group. */
    java.util.Set<String> groups() {
        java.util.Set<String> all = new java.util.TreeSet<>(configured.keySet());
        all.add("default");
        return all;
    }

    /** How many instances the configured pools take at once, altogether. */
    int totalCapacity() {
        int total = fallback.threads() + fallback.queueCapacity();
        for (PoolSettings s : configured.values()) {
            total += s.threads() + s.queueCapacity();
        }
        return total;
    }

    /** How many instances one group's pool takes at once. */
    int capacity(String group) {
        PoolSettings s = settings(group);
        return s.threads() + s.queueCapacity();
    }

    private Semaphore places(String group) {
        return places.computeIfAbsent(group, g -> new Semaphore(capacity(g)));
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
