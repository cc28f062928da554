package io.ax.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Entries on every level cascade down and fire exactly once, never early, whatever the clock's origin. */
class TimingWheelCascadeTest {

    private static final long MS = 1_000_000L;

    /** Deadlines, as distances from the start, that land on every level of a wheel with one-nanosecond ticks. */
    static long[] distancesOnEveryLevel() {
        long[] distances = new long[TimingWheel.LEVELS + 2];
        for (int level = 0; level < TimingWheel.LEVELS; level++) {
            distances[level] = (1L << (level * TimingWheel.BUCKET_BITS)) + 3 * level + 1;
        }
        distances[TimingWheel.LEVELS] = Long.MAX_VALUE - 1; // the farthest a nanoTime deadline can be
        distances[TimingWheel.LEVELS + 1] = Long.MAX_VALUE / 3;
        return distances;
    }

    static Stream<Long> edgeStarts() {
        return Stream.of(Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, 1L, Long.MAX_VALUE - 1_000, Long.MAX_VALUE);
    }

    @ParameterizedTest
    @MethodSource("edgeStarts")
    void entriesOnEveryLevelFireExactlyAtTheirDeadlineWhenAdvancedToEachNextDeadline(long start) {
        TimingWheel<Long> wheel = new TimingWheel<>(1, start);
        Recorder recorder = new Recorder();
        long[] distances = distancesOnEveryLevel();
        for (long distance : distances) {
            wheel.schedule(start + distance, start + distance);
        }

        int steps = 0;
        while (wheel.size() > 0) {
            long next = wheel.nextDeadline().getAsLong();
            recorder.advance(wheel, next);
            steps++;
        }

        assertThat(recorder.firedDeadlines).hasSize(distances.length);
        recorder.assertFiredInOrderAtTheFirstAdvanceAtOrAfterTheirDeadline();
        assertThat(recorder.lateness).allSatisfy(late -> assertThat(late).isZero());
        assertThat(steps).isLessThanOrEqualTo(distances.length * 2 * TimingWheel.LEVELS);
    }

    @ParameterizedTest
    @MethodSource("edgeStarts")
    void entriesOnEveryLevelFireOnceWhenAdvancedInRandomJumps(long start) {
        TimingWheel<Long> wheel = new TimingWheel<>(1, start);
        Recorder recorder = new Recorder();
        long[] distances = distancesOnEveryLevel();
        for (long distance : distances) {
            wheel.schedule(start + distance, start + distance);
        }

        SplittableRandom random = new SplittableRandom(start);
        long elapsed = 0;
        while (elapsed < Long.MAX_VALUE - 1) {
            long step = 1 + random.nextLong(1L << random.nextInt(0, 63)); // jumps of every magnitude
            elapsed += Math.min(step, Long.MAX_VALUE - 1 - elapsed);
            recorder.advance(wheel, start + elapsed);
        }

        assertThat(recorder.firedDeadlines).hasSize(distances.length);
        assertThat(wheel.size()).isZero();
        recorder.assertFiredInOrderAtTheFirstAdvanceAtOrAfterTheirDeadline();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7})
    void entryOnEachLevelOfAMillisecondWheelFiresWithinOneTickWhenSteppedTickByTick(int level) {
        long start = Long.MAX_VALUE - 20 * MS; // the clock wraps during the test
        TimingWheel<Long> wheel = new TimingWheel<>(MS, start);
        Recorder recorder = new Recorder();
        long distance = (1L << (level * TimingWheel.BUCKET_BITS)) * MS + 377_000;
        long deadline = start + distance;
        wheel.schedule(deadline, deadline);
        wheel.schedule(deadline + MS / 2, deadline + MS / 2);

        recorder.advance(wheel, deadline - 5 * MS); // one big jump: cascades down from the entry's level
        for (long now = deadline - 5 * MS + MS; now - (deadline + 3 * MS) <= 0; now += MS) {
            recorder.advance(wheel, now);
        }

        assertThat(recorder.firedDeadlines).containsExactly(deadline, deadline + MS / 2);
        recorder.assertFiredInOrderAtTheFirstAdvanceAtOrAfterTheirDeadline();
        assertThat(recorder.lateness).allSatisfy(late -> assertThat(late).isBetween(0L, MS));
    }

    @ParameterizedTest
    @MethodSource("edgeStarts")
    void entriesAcrossTheLowLevelsFireWithinOneTickWhenSteppedTickByTick(long start) {
        long tick = 1_000; // one microsecond
        TimingWheel<Long> wheel = new TimingWheel<>(tick, start);
        Recorder recorder = new Recorder();
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 2_000; i++) {
            long deadline = start + random.nextLong(-10 * tick, 300_000 * tick);
            wheel.schedule(deadline, deadline);
        }
        for (long distance : new long[] {0, tick - 1, 64 * tick, 4_096 * tick, 262_144 * tick}) {
            wheel.schedule(start + distance, start + distance);
        }

        for (long now = start; now - (start + 300_000 * tick) <= 0; now += tick) {
            recorder.advance(wheel, now);
        }

        assertThat(recorder.firedDeadlines).hasSize(2_005);
        recorder.assertFiredInOrderAtTheFirstAdvanceAtOrAfterTheirDeadline();
        assertThat(recorder.lateness).allSatisfy(late -> assertThat(late).isBetween(0L, tick));
    }

    @Test
    void entriesSurviveTheWrapOfTheTickCounterAfterTwoToTheSixtyFourTicks() {
        TimingWheel<Long> wheel = new TimingWheel<>(1, 0L); // one-nanosecond ticks: the counter wraps in 584 years
        Recorder recorder = new Recorder();
        long now = 0;
        int scheduled = 0;
        for (int step = 0; step < 24; step++) { // 24 quarter-ranges: one and a half turns of the 64-bit counter
            for (long distance : new long[] {1, 4_097, Long.MAX_VALUE / 3, Long.MAX_VALUE / 2 + step, Long.MAX_VALUE}) {
                wheel.schedule(now + distance, now + distance);
                scheduled++;
            }
            now += Long.MAX_VALUE / 4;
            recorder.advance(wheel, now);
        }
        recorder.advance(wheel, now + Long.MAX_VALUE);

        assertThat(recorder.firedDeadlines).hasSize(scheduled);
        assertThat(wheel.size()).isZero();
        recorder.assertFiredInOrderAtTheFirstAdvanceAtOrAfterTheirDeadline();
    }

    @Test
    void aMillionEntriesFireExactlyOnceInDeadlineOrder() {
        long start = Long.MAX_VALUE - 5_000 * MS;
        TimingWheel<Integer> wheel = new TimingWheel<>(MS, start);
        SplittableRandom random = new SplittableRandom(7);
        int count = 1_000_000;
        long[] deadlines = new long[count];
        for (int i = 0; i < count; i++) {
            deadlines[i] = start + random.nextLong(10_000 * MS);
            wheel.schedule(deadlines[i], i);
        }
        assertThat(wheel.size()).isEqualTo(count);

        BitSet seen = new BitSet(count);
        long[] previousDeadline = {start};
        int[] violations = {0};
        int fired = 0;
        for (long now = start; now - (start + 10_000 * MS) <= 0; now += MS) {
            long advancedTo = now;
            fired += wheel.advance(now, i -> {
                long deadline = deadlines[i];
                boolean early = deadline - advancedTo > 0;
                boolean outOfOrder = deadline - previousDeadline[0] < 0;
                if (seen.get(i) || early || outOfOrder) {
                    violations[0]++;
                }
                seen.set(i);
                previousDeadline[0] = deadline;
            });
        }

        assertThat(violations[0])
                .as("entries fired twice, early or out of order")
                .isZero();
        assertThat(fired).isEqualTo(count);
        assertThat(seen.cardinality()).isEqualTo(count);
        assertThat(wheel.size()).isZero();
    }

    @Test
    void everyOtherEntryStillFiresOnceWhenTheSinkKeepsThrowing() {
        TimingWheel<Integer> wheel = new TimingWheel<>(MS, 0);
        IntStream.range(0, 1_000).forEach(i -> wheel.schedule((i % 100) * MS, i));
        BitSet seen = new BitSet();
        int throwsSeen = 0;

        for (long now = 0; now <= 105 * MS; now += 7 * MS) {
            while (true) {
                try {
                    wheel.advance(now, i -> {
                        assertThat(seen.get(i)).isFalse();
                        seen.set(i);
                        if (i % 7 == 0) {
                            throw new IllegalStateException("boom " + i);
                        }
                    });
                    break;
                } catch (IllegalStateException expected) {
                    throwsSeen++;
                }
            }
        }

        assertThat(seen.cardinality()).isEqualTo(1_000);
        assertThat(throwsSeen).isEqualTo(143);
        assertThat(wheel.size()).isZero();
    }

    /** Records what fired and checks it against the advances made. */
    private static final class Recorder {
        final List<Long> firedDeadlines = new ArrayList<>();
        final List<Long> lateness = new ArrayList<>();
        private final List<Long> previousNows = new ArrayList<>(); // null: fired by the first advance
        private final List<Long> firedAt = new ArrayList<>();
        private Long previousNow;

        void advance(TimingWheel<Long> wheel, long now) {
            Long before = previousNow;
            wheel.advance(now, deadline -> {
                firedDeadlines.add(deadline);
                lateness.add(now - deadline);
                previousNows.add(before);
                firedAt.add(now);
            });
            previousNow = now;
        }

        void assertFiredInOrderAtTheFirstAdvanceAtOrAfterTheirDeadline() {
            for (int i = 0; i < firedDeadlines.size(); i++) {
                long deadline = firedDeadlines.get(i);
                assertThat(deadline - firedAt.get(i)).as("not early").isLessThanOrEqualTo(0);
                Long before = previousNows.get(i);
                if (before != null) {
                    assertThat(deadline - before).as("not late").isPositive();
                }
                if (i > 0 && firedAt.get(i).equals(firedAt.get(i - 1))) {
                    assertThat(deadline - firedDeadlines.get(i - 1))
                            .as("in order")
                            .isNotNegative();
                }
            }
        }
    }
}
