package io.ax.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Random schedule, cancel and advance sequences give exactly what a simple reference model gives. */
class TimingWheelFuzzTest {

    @ParameterizedTest(name = "seed {0}, start {1}, tick {2}")
    @CsvSource({
        "1, 0, 1000000",
        "2, -1, 1000000",
        "3, 9223372036854775000, 1000",
        "4, -9223372036854775808, 1",
        "5, 9223372036854775807, 1000000000",
        "6, 123456789, 999983",
        "7, -5000000, 1000"
    })
    void firesExactlyWhatTheReferenceModelFires(long seed, long start, long tick) {
        SplittableRandom random = new SplittableRandom(seed);
        TimingWheel<Integer> wheel = new TimingWheel<>(tick, start);
        ReferenceModel model = new ReferenceModel();
        List<Long> handles = new ArrayList<>();
        List<Integer> fired = new ArrayList<>();
        long now = start;
        int nextId = 0;

        for (int op = 0; op < 40_000; op++) {
            int choice = random.nextInt(100);
            if (choice < 55) {
                long deadline = now + randomDistance(random, tick);
                int id = nextId++;
                handles.add(wheel.schedule(deadline, id));
                model.schedule(deadline, id);
            } else if (choice < 75 && !handles.isEmpty()) {
                int index = random.nextInt(handles.size()); // may be fired, cancelled or pending
                boolean cancelled = wheel.cancel(handles.get(index));
                assertThat(cancelled).as("cancel of entry %d", index).isEqualTo(model.cancel(index));
            } else {
                now += randomStep(random, tick);
                fired.clear();
                wheel.advance(now, fired::add);
                assertThat(fired).as("fired at op %d", op).isEqualTo(model.advance(now));
            }
            assertThat(wheel.size()).isEqualTo(model.size());
        }
        now += Long.MAX_VALUE / 2; // farther than any pending deadline: everything is due
        fired.clear();
        wheel.advance(now, fired::add);
        assertThat(fired).isEqualTo(model.advance(now));
        assertThat(wheel.size()).isZero();
    }

    private static long randomDistance(SplittableRandom random, long tick) {
        return switch (random.nextInt(6)) {
            case 0 -> -random.nextLong(1, 100 * tick); // already past
            case 1 -> random.nextInt(4) * tick; // exact ties
            case 2 -> random.nextLong(0, 64 * tick);
            case 3 -> random.nextLong(0, 5_000 * tick);
            case 4 -> random.nextLong(0, Long.MAX_VALUE / 4);
            default -> random.nextLong(0, 1L << random.nextInt(1, 62));
        };
    }

    private static long randomStep(SplittableRandom random, long tick) {
        return switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> random.nextLong(0, tick + 1);
            case 2 -> random.nextLong(0, 100 * tick);
            case 3 -> -random.nextLong(0, 2 * tick); // a clock read slightly out of order
            default -> random.nextLong(0, Long.MAX_VALUE >> random.nextInt(3, 62)); // jumps of every size
        };
    }

    /**
     * The obvious implementation: every pending entry in a sorted map. Deadlines are compared by subtraction, which
     * is a total order here because the test keeps every pending deadline within a quarter of the long range of now.
     */
    private static final class ReferenceModel {
        private record Entry(long deadline, int id) {}

        private final TreeMap<Entry, Integer> pending = new TreeMap<>((a, b) -> {
            long difference = a.deadline() - b.deadline();
            return difference != 0 ? (difference < 0 ? -1 : 1) : Integer.compare(a.id(), b.id());
        });
        private final List<Entry> entries = new ArrayList<>();

        void schedule(long deadline, int id) {
            Entry entry = new Entry(deadline, id);
            entries.add(entry);
            pending.put(entry, id);
        }

        boolean cancel(int id) {
            return pending.remove(entries.get(id)) != null;
        }

        List<Integer> advance(long now) {
            List<Integer> due = new ArrayList<>();
            while (!pending.isEmpty() && pending.firstKey().deadline() - now <= 0) {
                due.add(pending.pollFirstEntry().getValue());
            }
            return due;
        }

        int size() {
            return pending.size();
        }
    }
}
