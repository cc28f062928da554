package io.ax.bench.wakeup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * What a round's load scheduled and what its handlers started, by instance id, on {@link System#nanoTime} (one JVM,
 * one clock). A handler may start before the schedule call that wrote its instance has returned its id, so the two
 * sides are kept apart and matched when the round is over. Thread-safe: the load thread writes the one side, the
 * nodes' pool threads the other.
 */
final class RunLog {

    /** One schedule call: when it was made, when it returned, and whether it falls in the measured window. */
    private record Sent(long callNanos, long returnNanos, boolean measured) {}

    /** The first start of an instance's handler: on which node, and when. */
    private record Start(String node, long nanos) {}

    private final Map<String, Sent> sent = new ConcurrentHashMap<>();
    private final Map<String, Start> started = new ConcurrentHashMap<>();
    /** Ids whose handler started more than once, once per start after the first. */
    private final List<String> again = new ArrayList<>(); // guarded by itself

    private final AtomicLong starts = new AtomicLong();

    void scheduled(String id, long callNanos, long returnNanos, boolean measured) {
        sent.put(id, new Sent(callNanos, returnNanos, measured));
    }

    /** A handler started: called first thing in the handler. */
    void started(String id, String node, long nanos) {
        starts.incrementAndGet();
        if (started.putIfAbsent(id, new Start(node, nanos)) != null) {
            synchronized (again) {
                again.add(id);
            }
        }
    }

    /** How many scheduled instances have not started yet. */
    long waiting() {
        return sent.keySet().stream().filter(id -> !started.containsKey(id)).count();
    }

    /** The round's figures: latencies of the measured window, split by the node that ran them. */
    Tally tally(String scheduler) {
        Histogram remote = new Histogram(3);
        Histogram local = new Histogram(3);
        Histogram call = new Histogram(3);
        long missing = 0;
        for (Map.Entry<String, Sent> e : sent.entrySet()) {
            Start start = started.get(e.getKey());
            if (start == null) {
                missing++;
                continue;
            }
            Sent s = e.getValue();
            if (!s.measured()) {
                continue;
            }
            long micros = Math.max(0, (start.nanos() - s.callNanos()) / 1_000);
            (start.node().equals(scheduler) ? local : remote).recordValue(micros);
            call.recordValue(Math.max(0, (s.returnNanos() - s.callNanos()) / 1_000));
        }
        long unknown =
                started.keySet().stream().filter(id -> !sent.containsKey(id)).count();
        List<String> twice;
        synchronized (again) {
            twice = List.copyOf(again);
        }
        return new Tally(sent.size(), starts.get(), missing, twice, unknown, remote, local, call);
    }

    /**
     * @param scheduled instances scheduled in the round, warm-up included
     * @param starts handler starts, warm-up included
     * @param missing scheduled instances whose handler never started
     * @param twice ids of handler starts after an instance's first
     * @param unknown instances started that no schedule call of the load returned
     * @param remote microseconds from the schedule call to the handler's start, instances run by another node
     * @param local the same, run by the node that scheduled them
     * @param call microseconds the schedule call took
     */
    record Tally(
            long scheduled,
            long starts,
            long missing,
            List<String> twice,
            long unknown,
            Histogram remote,
            Histogram local,
            Histogram call) {

        Tally {
            twice = List.copyOf(twice);
        }

        /** {@code percentile} of {@code h} in milliseconds; NaN when it is empty. */
        static double millis(Histogram h, double percentile) {
            return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
        }

        static double maxMillis(Histogram h) {
            return h.getTotalCount() == 0 ? Double.NaN : h.getMaxValue() / 1000.0;
        }

        List<String> twiceSample() {
            return new ArrayList<>(twice.subList(0, Math.min(5, twice.size())));
        }
    }
}
