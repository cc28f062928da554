package io.ax.autoconfigure.health;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * A health check that answers within a bound whatever the check does: it runs on its own thread ({@code ax-health}),
 * one at a time, and a caller waits for it at most {@code within}. A check that takes longer goes on in the background
 * while the caller gets the last answer, marked as such; once one has not finished for {@code downAfter}, the answer
 * is DOWN, saying so (a machine so starved, or a part so blocked, that AX cannot tell its own state cannot do its
 * work). Callers that come while a check runs wait for that one: checks never pile up. Thread-safe.
 */
final class BoundedCheck implements AutoCloseable {

    private final Supplier<Health> check;
    private final Duration within;
    private final Duration downAfter;
    private final InstantSource clock;
    private final ThreadPoolExecutor thread;

    /** The check on its way, or the last one (done); guarded by this. */
    private CompletableFuture<Health> current;

    private Instant currentSince;
    private volatile Health last;
    private volatile Instant lastAt;

    BoundedCheck(Supplier<Health> check, Duration within, Duration downAfter, InstantSource clock) {
        this.check = check;
        this.within = within;
        this.downAfter = downAfter;
        this.clock = clock;
        this.thread = new ThreadPoolExecutor(
                1,
                1,
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(1),
                runnable -> {
                    Thread t = new Thread(runnable, "ax-health");
                    t.setDaemon(true);
                    return t;
                },
                new ThreadPoolExecutor.AbortPolicy());
        this.thread.allowCoreThreadTimeOut(true);
    }

    /** The check's answer, or within the bound the last one (or DOWN, or UNKNOWN before any answer). */
    Health answer() {
        CompletableFuture<Health> running;
        Instant since;
        synchronized (this) {
            if (current == null || current.isDone()) {
                try {
                    current = CompletableFuture.supplyAsync(check, thread);
                    currentSince = clock.instant();
                } catch (RejectedExecutionException stopped) {
                    return Health.unknown().withDetail("engine", "stopping").build();
                }
            }
            running = current;
            since = currentSince;
        }
        try {
            Health health = running.get(within.toNanos(), TimeUnit.NANOSECONDS);
            last = health;
            lastAt = clock.instant();
            return health;
        } catch (TimeoutException e) {
            return late(since);
        } catch (ExecutionException e) {
            return Health.down().withException(e.getCause()).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return late(since);
        }
    }

    /** The answer while a check has taken longer than the bound. */
    private Health late(Instant since) {
        Instant now = clock.instant();
        long runningMillis = Duration.between(since, now).toMillis();
        Health known = last;
        String note =
                "the check under way has taken " + runningMillis + " ms (answers within " + within.toMillis() + " ms)";
        if (known == null || runningMillis >= downAfter.toMillis()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("check", note + (known == null ? "; no check has finished yet" : ""));
            if (known != null) {
                details.put("lastAnswer", known.getStatus().getCode() + " at " + lastAt);
            }
            Status status = runningMillis >= downAfter.toMillis() ? Status.DOWN : Status.UNKNOWN;
            return Health.status(status).withDetails(details).build();
        }
        return Health.status(known.getStatus())
                .withDetails(known.getDetails())
                .withDetail("check", note + "; this is the answer of " + lastAt)
                .build();
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
