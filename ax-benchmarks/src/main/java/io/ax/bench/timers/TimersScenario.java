package io.ax.bench.timers;

import io.ax.bench.Heap;
import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import io.ax.bench.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * "Timers in memory": N one-shot timers with random delays into AX's {@code WheelTimer}, Netty's {@code
 * HashedWheelTimer} and a one-thread {@code ScheduledThreadPoolExecutor}, one system after the other in the same
 * JVM. Measures schedule and cancel throughput from one thread, the heap each pending timer holds, and how late the
 * timers fire.
 */
public final class TimersScenario implements Scenario {

    private static final List<String> SYSTEMS = List.of("AX", "HashedWheelTimer", "ScheduledThreadPoolExecutor");
    private static final long SEED = 42;
    /** Puts the cancel round's timers out of reach of firing while the heap is measured and they are cancelled. */
    private static final long CANCEL_ROUND_OFFSET_NANOS = TimeUnit.MINUTES.toNanos(10);
    /** How long the fire round waits past the last deadline before it gives up on missing timers. */
    private static final long FIRE_GRACE_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** What one system scored. */
    private record Measured(
            double schedulePerSecond,
            double cancelPerSecond,
            double bytesPerTimer,
            double p50,
            double p99,
            double p999,
            double max,
            List<String> anomalies) {}

    @Override
    public ResultTable run(Options options) throws Exception {
        int n = options.getInt("timers", 1_000_000, 200_000);
        long spreadNanos = TimeUnit.SECONDS.toNanos(options.quick() ? 5 : 10);
        long[] delays = new SplittableRandom(SEED).longs(n, 0, spreadNanos).toArray();

        Map<String, Supplier<TimerSystem>> systems = new LinkedHashMap<>();
        systems.put(SYSTEMS.get(0), AxTimers::new);
        systems.put(SYSTEMS.get(1), NettyTimers::new);
        systems.put(SYSTEMS.get(2), StpeTimers::new);

        Map<String, Measured> results = new LinkedHashMap<>();
        for (Map.Entry<String, Supplier<TimerSystem>> system : systems.entrySet()) {
            results.put(system.getKey(), measure(system.getKey(), system.getValue(), delays, spreadNanos));
            System.gc();
        }
        return table(n, spreadNanos, results);
    }

    private static Measured measure(String name, Supplier<TimerSystem> factory, long[] delays, long spreadNanos)
            throws InterruptedException {
        int n = delays.length;
        List<String> anomalies = new ArrayList<>();

        int warmUp = Math.max(1, n / 5);
        progress("%s warm-up: fire and cancel %d timers", name, warmUp);
        long[] warmUpDelays = new long[warmUp];
        for (int i = 0; i < warmUp; i++) {
            warmUpDelays[i] = delays[i] / 10;
        }
        fireRound(name, factory, warmUpDelays, spreadNanos / 10, new ArrayList<>());
        cancelRound(name, factory, warmUpDelays, new ArrayList<>());

        long[] cancelRound = cancelRound(name, factory, delays, anomalies);
        double bytesPerTimer = (double) cancelRound[0] / n;
        double cancelPerSecond = n / (cancelRound[1] / 1e9);
        progress("%s: %.1f bytes per pending timer, cancel %.0f timers/s", name, bytesPerTimer, cancelPerSecond);

        Lateness lateness = new Lateness();
        long scheduleNanos = fireRound(name, factory, delays, spreadNanos, anomalies, lateness);
        double schedulePerSecond = n / (scheduleNanos / 1e9);
        progress(
                "%s: schedule %.0f timers/s, lateness p50 %.3f ms, p99 %.3f ms, max %.3f ms",
                name, schedulePerSecond, lateness.millisAt(50), lateness.millisAt(99), lateness.maxMillis());
        return new Measured(
                schedulePerSecond,
                cancelPerSecond,
                bytesPerTimer,
                lateness.millisAt(50),
                lateness.millisAt(99),
                lateness.millisAt(99.9),
                lateness.maxMillis(),
                anomalies);
    }

    private static long fireRound(
            String name, Supplier<TimerSystem> factory, long[] delays, long spreadNanos, List<String> anomalies)
            throws InterruptedException {
        return fireRound(name, factory, delays, spreadNanos, anomalies, new Lateness());
    }

    /**
     * Schedules every delay on a fresh timer, waits (bounded) until all have fired, and checks that each fired once
     * and none early.
     *
     * @return the nanoseconds it took to schedule them all
     */
    private static long fireRound(
            String name,
            Supplier<TimerSystem> factory,
            long[] delays,
            long spreadNanos,
            List<String> anomalies,
            Lateness lateness)
            throws InterruptedException {
        int n = delays.length;
        try (TimerSystem system = factory.get()) {
            system.open(n);
            Heap.settle();
            progress("%s: schedule %d timers due within %d ms and wait for them", name, n, spreadNanos / 1_000_000L);
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                long now = System.nanoTime();
                system.schedule(i, new Probe(now + delays[i], lateness), delays[i]);
            }
            long scheduleNanos = System.nanoTime() - start;
            long giveUpAt = start + scheduleNanos + spreadNanos + FIRE_GRACE_NANOS;
            while (lateness.fired() < n && System.nanoTime() - giveUpAt < 0) {
                Thread.sleep(10);
            }
            Thread.sleep(100); // a duplicate firing would show up as a count above n
            int fired = lateness.fired();
            if (fired != n) {
                anomalies.add(String.format(Locale.ROOT, "%s fired %,d callbacks for %,d timers", name, fired, n));
            }
            if (lateness.early() > 0) {
                anomalies.add(String.format(
                        Locale.ROOT, "%s fired %,d of %,d timers before their deadline", name, lateness.early(), n));
            }
            return scheduleNanos;
        }
    }

    /**
     * Schedules every delay (pushed {@value #CANCEL_ROUND_OFFSET_NANOS} ns out) on a fresh timer, measures the heap
     * they hold, then cancels them all.
     *
     * @return {bytes retained by the pending timers, nanoseconds it took to cancel them all}
     */
    private static long[] cancelRound(String name, Supplier<TimerSystem> factory, long[] delays, List<String> anomalies)
            throws InterruptedException {
        int n = delays.length;
        Lateness never = new Lateness();
        try (TimerSystem system = factory.get()) {
            system.open(n); // the handle array is allocated here, before the baseline: no system is charged for it
            long before = Heap.usedAfterGc();
            progress("%s: schedule %d timers, measure the heap, cancel them", name, n);
            for (int i = 0; i < n; i++) {
                long now = System.nanoTime();
                long delay = CANCEL_ROUND_OFFSET_NANOS + delays[i];
                system.schedule(i, new Probe(now + delay, never), delay);
            }
            long after = Heap.usedAfterGc();
            int failed = 0;
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                if (!system.cancel(i)) {
                    failed++;
                }
            }
            long cancelNanos = System.nanoTime() - start;
            if (failed > 0 || never.fired() > 0) {
                anomalies.add(String.format(
                        Locale.ROOT,
                        "%s: %,d of %,d cancels failed and %,d timers fired in the cancel round",
                        name,
                        failed,
                        n,
                        never.fired()));
            }
            return new long[] {after - before, cancelNanos};
        }
    }

    private static ResultTable table(int n, long spreadNanos, Map<String, Measured> results) {
        ResultTable table = new ResultTable(
                String.format(
                        Locale.ROOT,
                        "Timers in memory (%,d one-shot timers over %d s)",
                        n,
                        spreadNanos / 1_000_000_000L),
                SYSTEMS);
        row(table, results, "schedule throughput", "timers/s", Better.HIGHER, Measured::schedulePerSecond);
        row(table, results, "cancel throughput", "timers/s", Better.HIGHER, Measured::cancelPerSecond);
        row(table, results, "heap per pending timer", "bytes", Better.LOWER, Measured::bytesPerTimer);
        row(table, results, "fire lateness p50", "ms", Better.LOWER, Measured::p50);
        row(table, results, "fire lateness p99", "ms", Better.LOWER, Measured::p99);
        row(table, results, "fire lateness p99.9", "ms", Better.LOWER, Measured::p999);
        row(table, results, "fire lateness max", "ms", Better.LOWER, Measured::max);
        table.note("AX `WheelTimer`: 1 ms tick (hierarchical wheel, 64 buckets per level; it parks until the next"
                + " due bucket and fires at the exact deadline). Netty `HashedWheelTimer`: 1 ms tick, 512 ticks per"
                + " wheel, leak detection on, pending timeouts unlimited. `ScheduledThreadPoolExecutor`: 1 thread,"
                + " default policies (removeOnCancel false).");
        table.note("Each system in turn in this JVM: a warm-up (N/5 timers, delays divided by 10, fired, then"
                + " cancelled), a cancel round and a fire round, each on a fresh timer, with System.gc() between.");
        table.note("Schedule: one thread submits N timers with delays uniform over [0, "
                + spreadNanos / 1_000_000_000L + " s) (seed " + SEED + ", the same for all); each deadline is"
                + " System.nanoTime() at submission plus the delay; AX takes that absolute deadline, the peers take"
                + " the delay and read the clock again themselves. Timed from the first submit to the last.");
        table.note("Cancel: a separate round of N timers due 10 min plus the same delays, then all cancelled in"
                + " submission order from one thread. AX unlinks the entry at once; Netty queues it for its worker"
                + " to unlink at the next tick; STPE (removeOnCancel false) only marks it, the task stays queued"
                + " until its delay ends.");
        table.note("Heap: used heap (MemoryMXBean, smallest of three readings after System.gc()) with all N timers"
                + " of the cancel round pending, minus the same with the timer started and empty, divided by N."
                + " It counts the payload (one 24-byte `Probe` per timer, the same class for all three) and all the"
                + " system keeps per timer, including its grown arrays (AX's slot arrays grow by half, so their"
                + " spare capacity is counted). The caller's handle array (AX `long[]` 8 B/timer; Netty"
                + " `Timeout[]` and STPE `ScheduledFuture[]` 4 B/timer with compressed oops) is allocated before"
                + " the baseline and charged to no one. Under G1 an array above half a region is humongous and"
                + " counted by whole regions; AX's slot arrays are such arrays, and with their growth by half its"
                + " figure depends on where N falls between two growth steps (compare runs with other --timers).");
        table.note("Lateness: System.nanoTime() in the callback minus the deadline, recorded into an HdrHistogram"
                + " on the firing thread (each system fires from a single thread); callbacks do nothing else."
                + " Scheduling overlaps the first deadlines, as in use.");
        List<String> anomalies = new ArrayList<>();
        results.values().forEach(m -> anomalies.addAll(m.anomalies()));
        if (anomalies.isEmpty()) {
            table.note("Checks passed: every timer fired exactly once and none early; every cancel succeeded.");
        } else {
            anomalies.forEach(a -> table.note("ANOMALY: " + a));
        }
        return table;
    }

    private static void row(
            ResultTable table,
            Map<String, Measured> results,
            String metric,
            String unit,
            Better better,
            Function<Measured, Double> value) {
        Map<String, Double> values = new LinkedHashMap<>();
        results.forEach((system, measured) -> values.put(system, value.apply(measured)));
        table.row(metric, unit, better, values);
    }

    private static void progress(String format, Object... args) {
        System.err.println("timers: " + String.format(Locale.ROOT, format, args));
    }
}
