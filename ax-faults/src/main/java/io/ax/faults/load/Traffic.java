package io.ax.faults.load;

import io.ax.faults.Log;
import io.ax.faults.cluster.Cluster;
import io.ax.faults.cluster.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The traffic the nodes get from outside over HTTP, each request to a node picked at random among those running:
 * orders opened (some paid before their window ends, the rest left to close), delayed tasks scheduled in batches,
 * and bursts of delayed tasks limited across the cluster, each burst one more than its limits let run at once and
 * three of a task with a rate (of both, some cancelled soon after, through another node). Runs on named threads of
 * bounded pools; counts what was answered and what was not. Thread-safe.
 */
public final class Traffic implements AutoCloseable {

    /** The sample's payment window in the fault profile: a payment must come before it ends to be sure to count. */
    private static final long PAYMENT_WINDOW_MS = 5_000;

    /** The delays of the delayed tasks. */
    public static final Duration MIN_DELAY = Duration.ofSeconds(1);

    public static final Duration MAX_DELAY = Duration.ofSeconds(8);

    /** How often a burst of limited tasks is scheduled (eleven instances, most of a few hundred milliseconds each). */
    private static final Duration LIMITED_EVERY = Duration.ofSeconds(1);

    private final Cluster cluster;
    private final int ordersPerSecond;
    private final int delayedPerSecond;
    private final Random random;
    private final ScheduledThreadPoolExecutor threads;
    private final ThreadPoolExecutor httpThreads;
    private final NodeApi api;
    private final JdbcTemplate acked;

    private final AtomicLong ordersOpened = new AtomicLong();
    private final AtomicLong ordersPaid = new AtomicLong();
    private final AtomicLong delayedScheduled = new AtomicLong();
    private final AtomicLong limitedScheduled = new AtomicLong();
    private final AtomicLong delayedCancelRequests = new AtomicLong();
    private final AtomicLong unanswered = new AtomicLong();

    /**
     * @param acked where what the nodes answered is written ({@code faults_acked}): the ids of the delayed tasks and
     *     orders they accepted
     */
    public Traffic(Cluster cluster, int ordersPerSecond, int delayedPerSecond, long seed, JdbcTemplate acked) {
        this.cluster = cluster;
        this.acked = acked;
        this.ordersPerSecond = ordersPerSecond;
        this.delayedPerSecond = delayedPerSecond;
        this.random = new Random(seed ^ 0x5DEECE66DL);
        AtomicInteger n = new AtomicInteger();
        this.threads = new ScheduledThreadPoolExecutor(4, r -> new Thread(r, "faults-traffic-" + n.incrementAndGet()));
        AtomicInteger h = new AtomicInteger();
        this.httpThreads = new ThreadPoolExecutor(
                2,
                2,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(1_000),
                r -> new Thread(r, "faults-http-" + h.incrementAndGet()));
        this.api = new NodeApi(httpThreads);
    }

    /**
     * What the traffic did, for the report.
     *
     * @param delayedScheduled delayed tasks scheduled, the limited ones included
     * @param limitedScheduled delayed tasks limited across the cluster scheduled
     */
    public record Counts(
            long ordersOpened,
            long ordersPaid,
            long delayedScheduled,
            long limitedScheduled,
            long cancelRequests,
            long unanswered) {}

    public void start() {
        if (ordersPerSecond > 0) {
            threads.scheduleAtFixedRate(this::openOrder, 0, 1_000_000 / ordersPerSecond, TimeUnit.MICROSECONDS);
        }
        if (delayedPerSecond > 0) {
            // in batches twice a second: scheduleAll writes a batch in a few round trips
            threads.scheduleAtFixedRate(this::scheduleDelayed, 0, 500, TimeUnit.MILLISECONDS);
            // a part of the delayed load, off beat with the batches
            threads.scheduleAtFixedRate(this::scheduleLimited, 250, LIMITED_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    public Counts counts() {
        return new Counts(
                ordersOpened.get(),
                ordersPaid.get(),
                delayedScheduled.get(),
                limitedScheduled.get(),
                delayedCancelRequests.get(),
                unanswered.get());
    }

    private synchronized int nextInt(int bound) {
        return random.nextInt(bound);
    }

    /** A running node's HTTP port, or -1 when none runs. */
    private int anyPort() {
        List<Node> running = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            if (node.isRunning()) {
                running.add(node);
            }
        }
        if (running.isEmpty()) {
            return -1;
        }
        return running.get(nextInt(running.size())).httpPort();
    }

    private void openOrder() {
        guarded(() -> {
            int port = anyPort();
            long id = port < 0 ? -1 : api.openOrder(port, "faults-" + System.nanoTime());
            if (id < 0) {
                unanswered.incrementAndGet();
                return;
            }
            ordersOpened.incrementAndGet();
            acked("order", List.of(Long.toString(id)));
            if (nextInt(100) < 40) { // paid before its window ends (or so it is meant: a slow payment loses)
                long after = 300 + nextInt((int) (PAYMENT_WINDOW_MS - 1_300));
                threads.schedule(() -> pay(id), after, TimeUnit.MILLISECONDS);
            }
        });
    }

    private void pay(long orderId) {
        guarded(() -> {
            int port = anyPort();
            if (port >= 0 && api.pay(port, orderId)) {
                ordersPaid.incrementAndGet();
            } else {
                unanswered.incrementAndGet();
            }
        });
    }

    private void scheduleDelayed() {
        guarded(() -> {
            int port = anyPort();
            int count = Math.max(1, delayedPerSecond / 2);
            List<String> ids = port < 0
                    ? List.of()
                    : api.scheduleDelayed(port, count, MIN_DELAY.toMillis(), MAX_DELAY.toMillis(), 0.1);
            if (ids.isEmpty()) {
                unanswered.incrementAndGet();
                return;
            }
            delayedScheduled.addAndGet(ids.size());
            acked("delayed", ids);
            cancelSome(ids);
        });
    }

    /** Writes what a node accepted, in one statement, with the database's time. */
    private void acked(String what, List<String> ids) {
        acked.batchUpdate(
                "INSERT INTO faults_acked (what, id, at_us)"
                        + " VALUES (?, ?, CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT))",
                ids.stream().map(id -> new Object[] {what, id}).toList());
    }

    private void scheduleLimited() {
        guarded(() -> {
            int port = anyPort();
            List<String> ids = port < 0
                    ? List.of()
                    : api.scheduleLimited(port, 1, MIN_DELAY.toMillis(), MAX_DELAY.toMillis(), 0.1);
            if (ids.isEmpty()) {
                unanswered.incrementAndGet();
                return;
            }
            delayedScheduled.addAndGet(ids.size());
            limitedScheduled.addAndGet(ids.size());
            acked("delayed", ids);
            cancelSome(ids);
        });
    }

    /** Cancels 15 % of {@code ids} a little later, through another node most of the time, before or as they fall due. */
    private void cancelSome(List<String> ids) {
        List<String> cancel = new ArrayList<>();
        for (String id : ids) {
            if (nextInt(100) < 15) {
                cancel.add(id);
            }
        }
        if (!cancel.isEmpty()) {
            threads.schedule(() -> cancel(cancel), 300 + nextInt(2_000), TimeUnit.MILLISECONDS);
        }
    }

    private void cancel(List<String> ids) {
        guarded(() -> {
            int port = anyPort();
            delayedCancelRequests.incrementAndGet();
            if (port < 0 || !api.cancel(port, ids)) {
                unanswered.incrementAndGet();
            }
        });
    }

    private interface Call {
        void run() throws InterruptedException;
    }

    /** A periodic task that throws is never run again: every call catches what it throws. */
    private void guarded(Call call) {
        try {
            call.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            Log.info("traffic call failed: %s", e);
            unanswered.incrementAndGet();
        }
    }

    /** Stops sending; waits for the calls under way (each bounded by its timeout). */
    @Override
    public void close() throws InterruptedException {
        threads.shutdownNow();
        threads.awaitTermination(10, TimeUnit.SECONDS);
        httpThreads.shutdown();
        httpThreads.awaitTermination(10, TimeUnit.SECONDS);
    }
}
