package io.ax.core.engine.work;

import io.ax.core.engine.PoolSettings;
import io.ax.core.engine.threads.NamedThreadFactory;
import io.ax.core.engine.threads.VirtualThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One bounded pool per task group, so a slow group cannot starve the others. Threads are named
 * {@code ax-<group>-<n>}, platform or virtual threads as the group's settings say: a pool of virtual threads is the
 * same bounded executor with the same queue and places, only its workers are virtual. Thread-safe.
 */
public final class ExecutionPools {

    private final Map<String, PoolSettings> configured;
    private final PoolSettings fallback;
    private final ConcurrentHashMap<String, ThreadPoolExecutor> pools = new ConcurrentHashMap<>();
    /**
     * Per group, the places (threads plus queue) not yet promised: an instance is claimed only with a place
     * reserved, so a claimed instance always finds room in its pool.
     */
    private final ConcurrentHashMap<String, Semaphore> places = new ConcurrentHashMap<>();

    public ExecutionPools(Map<String, PoolSettings> configured, PoolSettings fallback) {
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
    public boolean tryReserve(String group) {
        return places(group).tryAcquire();
    }

    /** Gives back a place reserved but not used. */
    public void unreserve(String group) {
        places(group).release();
    }

    /**
     * Runs an execution on a place reserved with {@link #tryReserve}; the place is free again when it ends.
     *
     * @throws RejectedExecutionException when the pool is shut down ({@link #stopTaking})
     */
    void submitReserved(String group, Execution execution, Runnable work) {
        Semaphore free = places(group);
        try {
            pools.computeIfAbsent(group, this::create).execute(new Reserved(execution, work, free));
        } catch (RejectedExecutionException e) {
            free.release();
            throw e;
        }
    }

    /**
     * Queued work that knows its execution, so that a stop can tell which instances never started, and the queue
     * which to start first.
     */
    private record Reserved(Execution execution, Runnable work, Semaphore free)
            implements Runnable, PriorityWorkQueue.Prioritized {

        @Override
        public int priority() {
            return execution.due.priority();
        }

        @Override
        public void run() {
            try {
                work.run();
            } finally {
                free.release();
            }
        }
    }

    /** The groups with their own settings, and the default group. */
    public java.util.Set<String> groups() {
        java.util.Set<String> all = new java.util.TreeSet<>(configured.keySet());
        all.add("default");
        return all;
    }

    /** How many instances the configured pools take at once, altogether. */
    public int totalCapacity() {
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

    /** The groups whose workers are virtual threads (the default group as {@code default}), sorted. */
    public java.util.Set<String> virtualGroups() {
        java.util.Set<String> virtual = new java.util.TreeSet<>();
        for (String group : groups()) {
            if (settings(group).virtualThreads()) {
                virtual.add(group);
            }
        }
        return virtual;
    }

    PoolSettings settings(String group) {
        return configured.getOrDefault(group, fallback);
    }

    private ThreadPoolExecutor create(String group) {
        PoolSettings s = settings(group);
        // without a queue the pool hands work to an idle thread or refuses it: there is nothing to order
        BlockingQueue<Runnable> queue = s.queueCapacity() == 0
                ? new SynchronousQueue<>()
                : new PriorityWorkQueue(s.queueCapacity(), s.overtakeLimit().toNanos(), System::nanoTime);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                s.threads(),
                s.threads(),
                60,
                TimeUnit.SECONDS,
                queue,
                s.virtualThreads()
                        ? VirtualThreads.factory("ax-" + group + "-")
                        : new NamedThreadFactory("ax-" + group + "-", false),
                new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * Stops taking work and takes out of the queues what no thread has started: those executions will not run here.
     * What runs goes on ({@link #awaitRunning}).
     */
    public List<Execution> stopTaking() {
        pools.values().forEach(ThreadPoolExecutor::shutdown);
        List<Execution> unstarted = new ArrayList<>();
        for (ThreadPoolExecutor pool : pools.values()) {
            List<Runnable> queued = new ArrayList<>();
            pool.getQueue().drainTo(queued);
            for (Runnable r : queued) {
                if (r instanceof Reserved reserved) {
                    reserved.free().release();
                    unstarted.add(reserved.execution());
                }
            }
        }
        return unstarted;
    }

    /**
     * Lets running work finish for up to {@code awaitNanos} (after {@link #stopTaking}); when some still runs then,
     * {@code overdue} is told first (it records what becomes of those attempts), and what remains is interrupted.
     */
    public void awaitRunning(long awaitNanos, Runnable overdue) {
        pools.values().forEach(ThreadPoolExecutor::shutdown);
        long deadline = System.nanoTime() + awaitNanos;
        boolean interrupted = false;
        for (ThreadPoolExecutor pool : pools.values()) {
            long left = deadline - System.nanoTime();
            try {
                if (left <= 0 || !pool.awaitTermination(left, TimeUnit.NANOSECONDS)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
                break;
            }
        }
        if (pools.values().stream().anyMatch(pool -> !pool.isTerminated())) {
            overdue.run();
            pools.values().forEach(ThreadPoolExecutor::shutdownNow);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether no attempt runs or waits for a thread in any pool. */
    public boolean idle() {
        for (ThreadPoolExecutor pool : pools.values()) {
            if (pool.getActiveCount() > 0 || !pool.getQueue().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Instances executing right now, over all pools. */
    public int active() {
        return pools.values().stream()
                .mapToInt(ThreadPoolExecutor::getActiveCount)
                .sum();
    }
}
