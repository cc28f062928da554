package io.ax.bench.delayed;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The due times of one phase, the same for every system: {@code n} times spread evenly over {@code [from, from +
 * span)} after a base instant, one in each of {@code n} equal slices (so no two are equal, and the spread has no
 * clumps), in a seeded random order, as an application schedules: not in time order.
 */
final class DueTimes {

    private final long[] offsetMicros;

    private DueTimes(long[] offsetMicros) {
        this.offsetMicros = offsetMicros;
    }

    static DueTimes spread(int n, Duration from, Duration span, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long fromMicros = from.toNanos() / 1_000;
        long spanMicros = span.toNanos() / 1_000;
        long slice = Math.max(1, spanMicros / n);
        long[] offsets = new long[n];
        for (int i = 0; i < n; i++) {
            offsets[i] = fromMicros + spanMicros * i / n + random.nextLong(slice);
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = offsets[i];
            offsets[i] = offsets[j];
            offsets[j] = t;
        }
        return new DueTimes(offsets);
    }

    /** {@code n} executions all due at the same moment, {@code at} after the base. */
    static DueTimes together(int n, Duration at) {
        long[] offsets = new long[n];
        Arrays.fill(offsets, at.toNanos() / 1_000);
        return new DueTimes(offsets);
    }

    int size() {
        return offsetMicros.length;
    }

    /** The times of executions {@code from} (inclusive) to {@code to} (exclusive), after {@code base}. */
    List<Instant> batch(Instant base, int from, int to) {
        List<Instant> out = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            out.add(base.plusNanos(offsetMicros[i] * 1_000));
        }
        return out;
    }
}
