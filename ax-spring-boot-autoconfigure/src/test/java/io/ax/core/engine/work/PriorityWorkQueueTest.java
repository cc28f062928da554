package io.ax.core.engine.work;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The pool's queue: highest priority first, equal ones in the order they came, and no overtaking past the limit. */
class PriorityWorkQueueTest {

    private static final long LIMIT = TimeUnit.SECONDS.toNanos(30);

    private final AtomicLong now = new AtomicLong(1_000);
    private final PriorityWorkQueue queue = new PriorityWorkQueue(10, LIMIT, now::get);

    private record Work(String name, int priority) implements Runnable, PriorityWorkQueue.Prioritized {
        @Override
        public void run() {}
    }

    private List<String> drain() {
        List<Runnable> out = new ArrayList<>();
        queue.drainTo(out);
        return out.stream().map(r -> r instanceof Work w ? w.name() : "plain").toList();
    }

    @Test
    void theHighestPriorityStartsFirstAndEqualPrioritiesInTheOrderTheyCame() {
        queue.offer(new Work("low-1", -5));
        queue.offer(new Work("normal-1", 0));
        queue.offer(new Work("high-1", 10));
        queue.offer(() -> {}); // work that knows no priority has 0
        queue.offer(new Work("high-2", 10));
        queue.offer(new Work("low-2", -5));

        assertThat(drain()).containsExactly("high-1", "high-2", "normal-1", "plain", "low-1", "low-2");
        assertThat(queue.agedStarts()).isZero();
    }

    @Test
    void workThatWaitedTheLimitIsNoLongerOvertaken() {
        queue.offer(new Work("low-old", -5));
        now.addAndGet(LIMIT - 1);
        queue.offer(new Work("high-1", 10));
        assertThat(((Work) queue.poll()).name())
                .as("within the limit, priority decides")
                .isEqualTo("high-1");

        queue.offer(new Work("high-2", 10));
        now.addAndGet(1); // low-old has waited the limit
        queue.offer(new Work("high-3", 10));
        assertThat(drain()).containsExactly("low-old", "high-2", "high-3");
        assertThat(queue.agedStarts()).isEqualTo(1);
    }

    @Test
    void amongWorkPastTheLimitTheOldestGoesFirst() {
        queue.offer(new Work("low-a", -5));
        queue.offer(new Work("normal-b", 0));
        queue.offer(new Work("high-c", 10));
        now.addAndGet(LIMIT);
        queue.offer(new Work("high-d", 10)); // fresh

        assertThat(drain()).containsExactly("low-a", "normal-b", "high-c", "high-d");
    }

    @Test
    void theOldestWorkPastTheLimitGoesFirstWhateverItsPlaceAmongThePriorities() {
        queue.offer(new Work("normal-old", 0));
        now.addAndGet(LIMIT / 2);
        queue.offer(new Work("low-newer", -5));
        queue.offer(new Work("high-1", 10));
        now.addAndGet(LIMIT / 2); // normal-old has waited the limit, low-newer has not

        assertThat(drain()).containsExactly("normal-old", "high-1", "low-newer");
        assertThat(queue.agedStarts()).isEqualTo(1);
    }

    @Test
    void aQueueThatEmptiesAndFillsAgainKeepsItsOrders() {
        for (int round = 0; round < 3; round++) {
            queue.offer(new Work("normal-" + round, 0));
            queue.offer(new Work("high-" + round, 10));
            assertThat(drain()).containsExactly("high-" + round, "normal-" + round);
            assertThat(queue.isEmpty()).isTrue();
        }
        Work only = new Work("only", 3);
        queue.offer(only);
        assertThat(queue.remove(only)).isTrue(); // its lane empties by a removal
        queue.offer(new Work("after", 3));
        queue.offer(new Work("first", 4));
        assertThat(drain()).containsExactly("first", "after");
        assertThat(queue.size()).isZero();
    }

    @Test
    void itHoldsNoMoreThanItsCapacity() throws InterruptedException {
        for (int i = 0; i < 10; i++) {
            assertThat(queue.offer(new Work("w" + i, i))).isTrue();
        }
        assertThat(queue.offer(new Work("one-too-many", 100))).isFalse();
        assertThat(queue.offer(new Work("one-too-many", 100), 10, TimeUnit.MILLISECONDS))
                .isFalse();
        assertThat(queue.remainingCapacity()).isZero();
        assertThat(queue.size()).isEqualTo(10);
        assertThat(((Work) queue.take()).name()).isEqualTo("w9");
        assertThat(queue.remainingCapacity()).isEqualTo(1);
    }

    @Test
    void removeAndTheIteratorSeeTheSameWork() {
        Work a = new Work("a", 1);
        Work b = new Work("b", 2);
        Work c = new Work("c", 3);
        queue.offer(a);
        queue.offer(b);
        queue.offer(c);
        assertThat(queue.peek()).isSameAs(c);
        assertThat(queue.remove(b)).isTrue();
        assertThat(queue.remove(b)).isFalse();
        assertThat(queue).containsExactly(c, a);
        var it = queue.iterator();
        it.next();
        it.remove();
        assertThat(drain()).containsExactly("a");
    }

    @Test
    void underProducersAndConsumersAtOnceEveryWorkIsTakenOnceAndTheCapacityHolds() throws Exception {
        PriorityWorkQueue shared = new PriorityWorkQueue(64, LIMIT, System::nanoTime);
        int producers = 4;
        int each = 5_000;
        java.util.Set<Runnable> taken = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.atomic.AtomicInteger duplicates = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger overfull = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int from = p * each;
                done.add(threads.submit(() -> {
                    java.util.Random random = new java.util.Random(from);
                    for (int i = from; i < from + each; i++) {
                        Work w = new Work("w" + i, random.nextInt(21) - 10);
                        while (!shared.offer(w)) {
                            Thread.onSpinWait(); // full: a consumer makes room
                        }
                        if (shared.size() > 64) {
                            overfull.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (int c = 0; c < 4; c++) {
                done.add(threads.submit(() -> {
                    while (taken.size() < producers * each) {
                        Runnable r = shared.poll(10, TimeUnit.MILLISECONDS);
                        if (r != null && !taken.add(r)) {
                            duplicates.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (var f : done) {
                f.get(20, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(taken).hasSize(producers * each);
        assertThat(duplicates.get()).isZero();
        assertThat(overfull.get()).isZero();
        assertThat(shared.isEmpty()).isTrue();
    }

    @Test
    void aTimedPollOfAnEmptyQueueReturnsNothingWhenItsTimeIsUp() throws InterruptedException {
        assertThat(queue.poll(5, TimeUnit.MILLISECONDS)).isNull();
        assertThat(queue.poll()).isNull();
        assertThat(queue.peek()).isNull();
    }
}
