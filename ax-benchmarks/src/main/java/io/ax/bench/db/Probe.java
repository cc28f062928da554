package io.ax.bench.db;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What every no-op handler calls: counts the execution, remembers when the last one ran, and records its lateness
 * (actual start minus scheduled fire time, in microseconds) into a recorder whose interval can be cut at the start
 * and end of the measured window. Thread-safe.
 */
public final class Probe {

    private final Recorder lateness = new Recorder(3);
    private final LongAdder executions = new LongAdder();
    private final LongAdder early = new LongAdder();
    private final LongAccumulator lastNanos = new LongAccumulator(Long::max, Long.MIN_VALUE);

    /** An execution started now that was due at {@code scheduled}. */
    public void executed(Instant scheduled) {
        long micros = ChronoUnit.MICROS.between(scheduled, Instant.now());
        if (micros < 0) {
            early.increment();
            micros = 0;
        }
        lateness.recordValue(micros);
        done();
    }

    /** An execution whose fire time does not matter (a burst) ended now. */
    public void done() {
        executions.increment();
        lastNanos.accumulate(System.nanoTime());
    }

    /** Executions so far. */
    public long executions() {
        return executions.sum();
    }

    /** Executions that started before their fire time (recorded as 0 ms late). */
    public long early() {
        return early.sum();
    }

    /** {@link System#nanoTime()} of the last execution. */
    public long lastNanos() {
        return lastNanos.get();
    }

    /** The lateness recorded since the previous call (the first call cuts off the warm-up). */
    public Histogram cut() {
        return lateness.getIntervalHistogram();
    }
}
