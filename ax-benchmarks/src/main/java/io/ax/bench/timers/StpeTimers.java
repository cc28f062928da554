package io.ax.bench.timers;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ScheduledThreadPoolExecutor} with one thread and its default policies (notably {@code
 * removeOnCancelPolicy} false: a cancelled task stays queued until its delay ends); the {@link ScheduledFuture}s
 * are kept in an array.
 */
final class StpeTimers implements TimerSystem {

    private ScheduledThreadPoolExecutor executor;
    private ScheduledFuture<?>[] handles;

    @Override
    public void open(int capacity) {
        executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "bench-stpe-timer");
            thread.setDaemon(true);
            return thread;
        });
        executor.prestartAllCoreThreads();
        handles = new ScheduledFuture<?>[capacity];
    }

    @Override
    public void schedule(int index, Probe probe, long delayNanos) {
        handles[index] = executor.schedule((Runnable) probe, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean cancel(int index) {
        return handles[index].cancel(false);
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
            System.err.println("timers: the STPE thread did not stop within 10 s");
        }
        executor = null;
        handles = null;
    }
}
