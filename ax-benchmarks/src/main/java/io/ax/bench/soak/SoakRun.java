package io.ax.bench.soak;

import io.ax.bench.Heap;
import io.ax.core.engine.AxEngine;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The minute loop: looks at the engine once a second (whether it reports its store away) and prints one
 * {@link Minute} line at the end of each minute. Runs on the caller's thread; the readings at a minute's end take
 * a few hundred ms (three collections for the heap, four counts), during which the workload goes on.
 */
final class SoakRun {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final SoakSettings settings;
    private final AxEngine engine;
    private final SoakDb db;
    private final Runs runs;
    private final Outages outages;
    private final List<Minute> minutes = new ArrayList<>();
    private final Histogram lateness = new Histogram(3);

    SoakRun(SoakSettings settings, AxEngine engine, SoakDb db, Runs runs, Outages outages) {
        this.settings = settings;
        this.engine = engine;
        this.db = db;
        this.runs = runs;
        this.outages = outages;
    }

    /** Runs {@code settings.minutes()} minutes from {@code t0} ({@link System#nanoTime()}), taken at {@code start}. */
    void run(long t0, Instant start) throws InterruptedException {
        System.out.println(Minute.header());
        long fires = 0;
        long delayed = 0;
        runs.latenessSinceLastCall(); // start the first interval now
        for (int m = 1; m <= settings.minutes(); m++) {
            int engineDown = 0;
            for (int s = 1; s <= 60; s++) {
                sleepUntil(t0 + Duration.ofSeconds((m - 1) * 60L + s).toNanos());
                if (engine.status().storeOutage().isPresent()) {
                    engineDown++;
                }
            }
            Instant now = Instant.now();
            Histogram h = runs.latenessSinceLastCall();
            lateness.add(h);
            long firesNow = runs.fires();
            long delayedNow = runs.delayedRuns();
            Minute line = new Minute(
                    m,
                    Heap.usedAfterGc() / (1024.0 * 1024.0),
                    THREADS.getThreadCount(),
                    db.sizes(),
                    firesNow - fires,
                    delayedNow - delayed,
                    percentile(h, 50),
                    percentile(h, 99),
                    h.getTotalCount() == 0 ? Double.NaN : h.getMaxValue(),
                    outages.secondsWithin(start.plusSeconds((m - 1) * 60L), now),
                    outages.inProgress(),
                    engineDown,
                    db.stuck(settings.stuckAfter()),
                    runs.duplicates(),
                    runs.forks());
            System.out.println(line.line());
            System.out.flush();
            minutes.add(line);
            fires = firesNow;
            delayed = delayedNow;
            runs.forgetBefore(now);
        }
    }

    List<Minute> minutes() {
        return List.copyOf(minutes);
    }

    /** Lateness of every first attempt of the run, in ms. */
    Histogram lateness() {
        return lateness;
    }

    static double percentile(Histogram h, double p) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(p);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }
}
