package io.ax.bench.timers;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Fire lateness of one round: {@code System.nanoTime()} when the callback runs minus the deadline.
 *
 * <p>{@link #record(long)} is called by one thread only (each measured system fires on a single thread); other
 * threads read {@link #fired()}, and may read the histogram once {@link #fired()} has reached the expected count
 * (the volatile write of the count publishes the records before it).
 */
final class Lateness {

    private static final long HIGHEST_NANOS = TimeUnit.MINUTES.toNanos(2);

    private final Histogram histogram = new Histogram(HIGHEST_NANOS, 3); // firing thread only
    private long early; // firing thread only; published by the volatile write of fired
    private volatile int fired; // single writer: the firing thread

    void record(long deadlineNanos) {
        long late = System.nanoTime() - deadlineNanos;
        if (late < 0) {
            early++;
            late = 0;
        }
        histogram.recordValue(Math.min(late, HIGHEST_NANOS));
        fired = fired + 1;
    }

    int fired() {
        return fired;
    }

    /** How many callbacks ran before their deadline; read after {@link #fired()}. */
    long early() {
        return early;
    }

    /** Lateness at a percentile, in milliseconds; read after {@link #fired()}. */
    double millisAt(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1e6;
    }

    double maxMillis() {
        return histogram.getMaxValue() / 1e6;
    }
}
