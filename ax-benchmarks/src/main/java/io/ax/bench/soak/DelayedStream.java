package io.ax.bench.soak;

import io.ax.core.AxScheduler;
import io.ax.core.ScheduleRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The steady stream of one-shot executions, as the sample's orders schedule their closes: once a second, one batch of
 * {@code perSecond} executions of {@link Workload#DELAYED}, each due 2 s to {@code maxDelay} later, with a key and its
 * sequence number as payload. During an outage {@code scheduleAll} fails (or waits for the pool's timeout) on this
 * one thread, and the stream falls behind rather than piling up: it runs with a fixed delay, not a fixed rate, and
 * does not retry a refused batch.
 */
final class DelayedStream implements AutoCloseable {

    static final Duration MIN_DELAY = Duration.ofSeconds(2);

    private final AxScheduler scheduler;
    private final DelayedLedger ledger;
    private final int perSecond;
    private final Duration maxDelay;
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "soak-delayed-stream"));
    /** The last error of a refused batch, for the report. */
    private final AtomicReference<String> lastError = new AtomicReference<>();

    DelayedStream(AxScheduler scheduler, DelayedLedger ledger, int perSecond, Duration maxDelay) {
        this.scheduler = scheduler;
        this.ledger = ledger;
        this.perSecond = perSecond;
        this.maxDelay = maxDelay;
    }

    void start() {
        if (perSecond > 0) {
            thread.scheduleWithFixedDelay(this::batch, 0, 1, TimeUnit.SECONDS);
        }
    }

    String lastError() {
        return lastError.get();
    }

    private void batch() {
        int first = ledger.reserve(perSecond);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Instant now = Instant.now();
        List<ScheduleRequest> requests = new ArrayList<>(perSecond);
        long[] due = new long[perSecond];
        for (int i = 0; i < perSecond; i++) {
            Instant at = now.plusMillis(random.nextLong(MIN_DELAY.toMillis(), maxDelay.toMillis()));
            due[i] = at.toEpochMilli();
            requests.add(ScheduleRequest.of(Workload.DELAYED)
                    .at(at)
                    .payload(Integer.toString(first + i))
                    .key("soak-" + (first + i)));
        }
        try {
            scheduler.scheduleAll(requests);
            for (int i = 0; i < perSecond; i++) {
                ledger.accepted(first + i, due[i]);
            }
        } catch (RuntimeException e) { // a scheduled executor would stop at the first escaping exception
            ledger.refused(perSecond);
            lastError.set(e.toString());
        }
    }

    /** Stops scheduling; waits for a batch in progress. */
    @Override
    public void close() throws InterruptedException {
        thread.shutdown();
        if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
            thread.shutdownNow();
        }
    }
}
