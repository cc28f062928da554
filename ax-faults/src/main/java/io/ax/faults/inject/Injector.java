package io.ax.faults.inject;

import io.ax.faults.Log;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a fault plan: one named thread ({@code faults-plan}) starts each step at its time on one of four injector
 * threads ({@code faults-inject-<n>}), so that faults overlap; a step that finds every injector busy and the queue
 * full is skipped. {@link #quiesce} stops the plan and waits for the faults under way, which heal themselves.
 */
public final class Injector {

    private static final int THREADS = 4;

    private final FaultContext context;
    private final FaultPlan plan;
    private final ScheduledThreadPoolExecutor clock =
            new ScheduledThreadPoolExecutor(1, r -> new Thread(r, "faults-plan"));
    private final ThreadPoolExecutor injectors;

    public Injector(FaultContext context, FaultPlan plan) {
        this.context = context;
        this.plan = plan;
        AtomicInteger n = new AtomicInteger();
        this.injectors = new ThreadPoolExecutor(
                THREADS,
                THREADS,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(THREADS * 4),
                r -> new Thread(r, "faults-inject-" + n.incrementAndGet()));
    }

    /** Schedules every step from now. */
    public void start() {
        for (FaultPlan.Step step : plan.steps()) {
            clock.schedule(() -> submit(step), step.at().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void submit(FaultPlan.Step step) {
        try {
            injectors.execute(() -> {
                try {
                    Fault.of(step.kind()).inject(context, step);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    Log.info("fault %s failed: %s", step.kind().cliName(), e);
                }
            });
        } catch (RejectedExecutionException e) {
            context.log().skipped(step.kind(), "every injector busy");
        }
    }

    /**
     * Starts no more steps and waits up to {@code bound} for those under way to end; what is still under way then is
     * interrupted (each fault heals in its {@code finally}).
     */
    public void quiesce(Duration bound) throws InterruptedException {
        clock.shutdownNow();
        clock.awaitTermination(5, TimeUnit.SECONDS);
        injectors.shutdown();
        if (!injectors.awaitTermination(bound.toMillis(), TimeUnit.MILLISECONDS)) {
            Log.info("faults still under way after %d s: interrupted", bound.toSeconds());
            injectors.shutdownNow();
            injectors.awaitTermination(30, TimeUnit.SECONDS);
        }
    }
}
