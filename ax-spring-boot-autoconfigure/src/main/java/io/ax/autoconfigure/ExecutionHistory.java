package io.ax.autoconfigure;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.EngineObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The last hour of this node's executions, minute by minute (wall clock): fires (first attempts that started),
 * how late they started, and how attempts ended. Sixty fixed buckets, reused as the minutes go by, so its size never
 * grows; for the dashboard's overview chart.
 *
 * <p>Thread-safe: the engine's threads record under this object's lock, which guards a few counter increments;
 * {@link #lastHour} copies under it.
 */
final class ExecutionHistory implements EngineObserver {

    static final int MINUTES = 60;
    private static final long MINUTE_MILLIS = 60_000;

    /** One minute's counts; {@code minute} says which minute (since the epoch) they belong to. */
    private static final class Bucket {
        long minute = Long.MIN_VALUE;
        long fires;
        long successes;
        long failures;
        long deadLetters;
        final LatenessHistogram lateness = new LatenessHistogram();

        void reset(long to) {
            minute = to;
            fires = 0;
            successes = 0;
            failures = 0;
            deadLetters = 0;
            lateness.clear();
        }
    }

    /**
     * The last hour, oldest minute first, the current (partial) minute last.
     *
     * @param latenessP50Millis median lateness over the hour; null without fires
     * @param latenessP99Millis its 99th percentile; null without fires
     */
    record Hour(List<AxDescriptors.Minute> minutes, Long latenessP50Millis, Long latenessP99Millis) {}

    private final AxClock clock;
    private final Bucket[] buckets = new Bucket[MINUTES]; // guarded by this

    ExecutionHistory(AxClock clock) {
        this.clock = clock;
        for (int i = 0; i < MINUTES; i++) {
            buckets[i] = new Bucket();
        }
    }

    @Override
    public void started(AxTask task, int attempt, Duration lateness, Duration ackLatency) {
        if (attempt != 1) {
            return; // a retry's lateness includes its back-off: not what "late" means to an operator
        }
        long now = minuteNow();
        synchronized (this) {
            Bucket b = bucket(now);
            b.fires++;
            b.lateness.record(lateness.toMillis());
        }
    }

    @Override
    public void finished(AxTask task, InstanceState outcome, Duration took) {
        long now = minuteNow();
        synchronized (this) {
            Bucket b = bucket(now);
            if (outcome == InstanceState.SUCCESS) {
                b.successes++;
            } else {
                b.failures++;
            }
        }
    }

    @Override
    public void deadLettered(AxTask task) {
        long now = minuteNow();
        synchronized (this) {
            bucket(now).deadLetters++;
        }
    }

    /** The sixty minutes up to now; minutes without activity (or before the start) count zero. */
    Hour lastHour() {
        long now = minuteNow();
        List<AxDescriptors.Minute> minutes = new ArrayList<>(MINUTES);
        LatenessHistogram hour = new LatenessHistogram();
        synchronized (this) {
            for (long m = now - MINUTES + 1; m <= now; m++) {
                Bucket b = buckets[index(m)];
                Instant start = Instant.ofEpochMilli(m * MINUTE_MILLIS);
                if (b.minute != m) {
                    minutes.add(new AxDescriptors.Minute(start, 0, 0, 0, 0, null, null));
                    continue;
                }
                b.lateness.addTo(hour);
                minutes.add(new AxDescriptors.Minute(
                        start,
                        b.fires,
                        b.successes,
                        b.failures,
                        b.deadLetters,
                        b.lateness.percentile(0.5),
                        b.lateness.percentile(0.99)));
            }
        }
        return new Hour(List.copyOf(minutes), hour.percentile(0.5), hour.percentile(0.99));
    }

    /**
     * The bucket of minute {@code m}, emptied first when it still holds the minute an hour before (or, after the
     * wall clock went back, a later one: those counts are dropped rather than mixed in).
     */
    private Bucket bucket(long m) {
        Bucket b = buckets[index(m)];
        if (b.minute != m) {
            b.reset(m);
        }
        return b;
    }

    private long minuteNow() {
        return Math.floorDiv(clock.instant().toEpochMilli(), MINUTE_MILLIS);
    }

    private static int index(long minute) {
        return (int) Math.floorMod(minute, (long) MINUTES);
    }
}
