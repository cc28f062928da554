package io.ax.bench.locks;

import io.ax.core.AxLock;
import io.ax.core.AxLocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * The lock load: {@code threads} threads (named {@code lock-bench-<n>}) each taking {@code iterations} locks of its
 * own through {@link AxLocks#tryAcquire}, then releasing them ({@link AxLock#close}), then taking and releasing one
 * lock {@code iterations} times; each call timed on its own. Names never collide between threads, so every acquire
 * should succeed: those that did not are counted.
 */
final class LockLoad implements AutoCloseable {

    /** What one phase measured: calls, how many did not do what was asked, time, and each call's latency. */
    record Phase(String name, long calls, long refused, double seconds, Histogram latency) {

        double perSecond() {
            return calls / seconds;
        }

        double millis(double percentile) {
            return latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(percentile) / 1e6;
        }
    }

    private final int threads;
    private final int iterations;
    private final ExecutorService pool;
    /** Per thread, the locks it holds between the acquire and the release phases. */
    private final List<List<AxLock>> held = new ArrayList<>();

    LockLoad(int threads, int iterations) {
        this.threads = threads;
        this.iterations = iterations;
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(
                threads,
                threads,
                0,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(threads),
                r -> new Thread(r, "lock-bench-" + n.incrementAndGet()));
        for (int t = 0; t < threads; t++) {
            held.add(new ArrayList<>(iterations));
        }
    }

    /** Each thread takes {@code iterations} locks and holds them. */
    Phase acquire(AxLocks locks) throws Exception {
        return phase("acquire", t -> {
            Histogram h = new Histogram(3);
            long refused = 0;
            for (int i = 0; i < iterations; i++) {
                long t0 = System.nanoTime();
                Optional<AxLock> lock = locks.tryAcquire("bench-" + t + "-" + i);
                h.recordValue(System.nanoTime() - t0);
                if (lock.isPresent()) {
                    held.get(t).add(lock.get());
                } else {
                    refused++;
                }
            }
            return new Slice(h, refused);
        });
    }

    /** Each thread releases the locks it took in {@link #acquire}. */
    Phase release() throws Exception {
        return phase("release", t -> {
            Histogram h = new Histogram(3);
            long lost = 0;
            for (AxLock lock : held.get(t)) {
                if (lock.isLost()) {
                    lost++;
                }
                long t0 = System.nanoTime();
                lock.close();
                h.recordValue(System.nanoTime() - t0);
            }
            held.get(t).clear();
            return new Slice(h, lost);
        });
    }

    /** Each thread takes one lock of its own and releases it, {@code iterations} times; one call = both. */
    Phase cycles(AxLocks locks) throws Exception {
        return phase("acquire + release", t -> {
            Histogram h = new Histogram(3);
            long refused = 0;
            for (int i = 0; i < iterations; i++) {
                long t0 = System.nanoTime();
                Optional<AxLock> lock = locks.tryAcquire("cycle-" + t);
                if (lock.isPresent()) {
                    lock.get().close();
                } else {
                    refused++;
                }
                h.recordValue(System.nanoTime() - t0);
            }
            return new Slice(h, refused);
        });
    }

    private record Slice(Histogram latency, long refused) {}

    private interface Work {
        Slice run(int thread) throws Exception;
    }

    private Phase phase(String name, Work work) throws Exception {
        List<Callable<Slice>> tasks = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            tasks.add(() -> work.run(thread));
        }
        long t0 = System.nanoTime();
        List<Future<Slice>> done = pool.invokeAll(tasks);
        double seconds = (System.nanoTime() - t0) / 1e9;
        Histogram all = new Histogram(3);
        long refused = 0;
        for (Future<Slice> f : done) {
            Slice s = f.get();
            all.add(s.latency());
            refused += s.refused();
        }
        return new Phase(name, all.getTotalCount(), refused, seconds, all);
    }

    /** Releases whatever is still held and stops the threads. */
    @Override
    public void close() {
        held.forEach(list -> list.forEach(AxLock::close));
        pool.shutdownNow();
    }
}
