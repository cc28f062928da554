package io.ax.bench.delayed;

import io.ax.bench.Heap;
import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.ScheduleRequest;
import io.ax.core.engine.AxEngine;
import io.ax.core.store.InMemoryInstanceStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Heap held per pending MEMORY execution: an engine with its in-memory store and no database, {@code n} MEMORY
 * executions scheduled through {@link AxEngine#scheduleAll} far in the future (so they all wait in the wheel), used
 * heap after full collections before and after, divided by {@code n}. Measured like the "timers" scenario measures
 * a pending timer ({@link Heap#usedAfterGc()}).
 */
final class MemoryHeap {

    static final String TASK = "memory";

    /** Bytes per pending execution, and the scheduling rate on the way (for information). */
    record Result(double bytesPerTask, double schedulePerSecond, long fired) {}

    private MemoryHeap() {}

    /**
     * @param payload the payload of every execution (encoded to its own byte array each, as the API does), or null
     */
    static Result measure(int n, int batch, DueTimes times, String payload) throws InterruptedException {
        LongAdder fired = new LongAdder();
        AxEngine engine = AxDelayed.newEngine(
                new InMemoryInstanceStore(1_000), 1, 1_000, (task, due) -> fired.increment(), List.of());
        engine.register(AxTask.builder(TASK).build());
        engine.start();
        try {
            // the caller's own list of requests is garbage once a batch returns; the ids returned are dropped
            long before = Heap.usedAfterGc();
            Instant base = Instant.now();
            long t0 = System.nanoTime();
            for (int from = 0; from < n; from += batch) {
                int to = Math.min(n, from + batch);
                List<ScheduleRequest> requests = new ArrayList<>(to - from);
                for (Instant due : times.batch(base, from, to)) {
                    requests.add(
                            ScheduleRequest.of(TASK).at(due).payload(payload).durability(Durability.MEMORY));
                }
                engine.scheduleAll(requests);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long after = Heap.usedAfterGc();
            return new Result((double) (after - before) / n, n / seconds, fired.sum());
        } finally {
            engine.stop();
        }
    }
}
