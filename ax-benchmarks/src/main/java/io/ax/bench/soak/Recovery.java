package io.ax.bench.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches every recurring task for its first fire after a moment (the end of an outage, or the start of the run):
 * the invariant is that each fires again within its own period plus the recovery bound. Thread-safe.
 */
final class Recovery {

    private final long sinceMillis;
    private final Map<String, Duration> periods;
    /** Task to the delay of its first start after {@link #sinceMillis}. */
    private final Map<String, Long> firstStart = new ConcurrentHashMap<>();

    Recovery(long sinceMillis, Map<String, Duration> periods) {
        this.sinceMillis = sinceMillis;
        this.periods = Map.copyOf(periods);
    }

    long sinceMillis() {
        return sinceMillis;
    }

    void started(String task, long nowMillis) {
        if (nowMillis >= sinceMillis) {
            firstStart.putIfAbsent(task, nowMillis - sinceMillis);
        }
    }

    /** Milliseconds until every task had fired again, or -1 while some has not. */
    long allFiredAfterMillis() {
        if (firstStart.size() < periods.size()) {
            return -1;
        }
        return firstStart.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /**
     * The tasks that did not fire within their period plus {@code bound}, judged at {@code nowMillis}: a task that
     * has not fired yet counts only once its deadline has passed.
     */
    List<String> late(Duration bound, long nowMillis) {
        List<String> late = new ArrayList<>();
        periods.forEach((task, period) -> {
            long deadline = period.plus(bound).toMillis();
            Long delay = firstStart.get(task);
            if (delay == null ? nowMillis - sinceMillis > deadline : delay > deadline) {
                late.add(task + (delay == null ? " (not yet)" : " (after " + delay + " ms)"));
            }
        });
        return late;
    }
}
