package io.ax.bench.cluster;

import io.ax.core.cluster.PartitionLease;
import io.ax.jdbc.JdbcPartitionLeases;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * Reads the partition table every {@link #EVERY} on a thread of its own ({@code partition-watch}), for as long as
 * the partition part runs: keeps the latest read, feeds each to the {@link OwnerlessSpans}, and completes the one
 * wait under way ({@link #await}) with the first read that meets its condition, so that a wait is timed by the read
 * that saw the change, not by how often the waiting thread looks. Thread-safe.
 */
final class PartitionWatch implements AutoCloseable {

    static final Duration EVERY = Duration.ofMillis(10);

    private final JdbcPartitionLeases leases;
    private final Duration lease;
    private final ScheduledThreadPoolExecutor thread;
    /** Guards {@link #spans}, {@link #latest}, {@link #condition} and {@link #waiter} against the waiting thread. */
    private final Object lock = new Object();

    private final OwnerlessSpans spans;
    private PartitionSnapshot latest;
    private Predicate<PartitionSnapshot> condition;
    private CompletableFuture<PartitionSnapshot> waiter;
    /** Reads that failed (the database was busy or away for a moment); the watch goes on. */
    private volatile int failedReads;

    /**
     * Reads once at once (so that {@link #latest} has a read when this returns), then every {@link #EVERY}.
     *
     * @param lease an owner whose heartbeat is older than this is dead (the nodes' lease)
     * @param boundNanos a span without a live owner longer than this is counted apart
     */
    PartitionWatch(JdbcPartitionLeases leases, Duration lease, long boundNanos) {
        this.leases = leases;
        this.lease = lease;
        this.spans = new OwnerlessSpans(boundNanos);
        List<PartitionLease> rows = leases.read(lease);
        this.latest = PartitionSnapshot.first(System.nanoTime(), rows);
        spans.observe(latest);
        this.thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "partition-watch");
            t.setDaemon(true);
            return t;
        });
        long every = EVERY.toNanos();
        thread.scheduleWithFixedDelay(this::read, every, every, TimeUnit.NANOSECONDS);
    }

    private void read() {
        List<PartitionLease> rows;
        try {
            rows = leases.read(lease);
        } catch (RuntimeException e) {
            failedReads++;
            return;
        }
        long now = System.nanoTime();
        synchronized (lock) {
            latest = latest.next(now, rows);
            spans.observe(latest);
            if (waiter != null && condition.test(latest)) {
                waiter.complete(latest);
                waiter = null;
                condition = null;
            }
        }
    }

    /** The latest read. */
    PartitionSnapshot latest() {
        synchronized (lock) {
            return latest;
        }
    }

    /**
     * Waits for the first read from now on that meets {@code condition}.
     *
     * @return that read
     * @throws IllegalStateException when none does within {@code timeout}, naming {@code what} and the latest loads
     */
    PartitionSnapshot await(String what, Predicate<PartitionSnapshot> condition, Duration timeout)
            throws InterruptedException {
        CompletableFuture<PartitionSnapshot> done = new CompletableFuture<>();
        synchronized (lock) {
            this.condition = condition;
            this.waiter = done;
        }
        try {
            return done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the partitions did not reach '" + what + "' within " + timeout
                    + "; live owners' loads now " + latest().loads() + ", failed reads " + failedReads);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            synchronized (lock) {
                if (waiter == done) {
                    waiter = null;
                    this.condition = null;
                }
            }
        }
    }

    /** {@code node} was killed just now, at {@code nanos}: its partitions have had no live owner since. */
    void killed(String node, long nanos) {
        synchronized (lock) {
            spans.killed(node, nanos, latest);
        }
    }

    /** What the spans without a live owner came to so far. */
    Ownerless ownerless() {
        synchronized (lock) {
            return new Ownerless(
                    spans.longestNanos(System.nanoTime()) / 1e9,
                    spans.spans(),
                    spans.overBound(),
                    spans.open(),
                    failedReads);
        }
    }

    /**
     * The spans without a live owner.
     *
     * @param longestSeconds the longest, closed or still open
     * @param spans how many closed
     * @param overBound how many of them lasted longer than lease + heartbeat
     * @param open partitions without a live owner at the latest read
     * @param failedReads reads of the table that failed (no span is seen while they fail)
     */
    record Ownerless(double longestSeconds, int spans, int overBound, int open, int failedReads) {}

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
