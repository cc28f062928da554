package io.ax.bench.soak;

import io.ax.test.net.FaultProxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The outage plan and its execution: at each planned start the proxy blackholes every connection (a partition:
 * nothing crosses, nothing is closed), at each end it passes again. Runs on one named thread; the readers may be any
 * thread.
 */
final class Outages implements AutoCloseable {

    /** One planned outage, as offsets from the start of the run. */
    record Window(Duration start, Duration length) {

        Duration end() {
            return start.plus(length);
        }
    }

    /** An outage as it happened. */
    record Done(Instant start, Instant end) {}

    private final FaultProxy proxy;
    private final List<Window> plan;
    private final Consumer<Instant> onEnd;
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "soak-outages"));
    /** Guarded by this object's monitor, as is the proxy's mode: an outage's record and the proxy change together. */
    private final List<Done> done = new CopyOnWriteArrayList<>();

    /** The start of the outage going on, or null; written under the monitor, read without it. */
    private volatile Instant current;

    /** @param onEnd told on the outage thread as each outage ends, with the moment the proxy passed again */
    Outages(FaultProxy proxy, List<Window> plan, Consumer<Instant> onEnd) {
        this.proxy = proxy;
        this.plan = List.copyOf(plan);
        this.onEnd = onEnd;
    }

    /**
     * An outage at every multiple of {@code every}, as long as the run goes on after its end for {@code tail} (the
     * longest period plus the recovery bound), so that recovery from the last one is judged within the run.
     */
    static List<Window> plan(Duration every, Duration length, Duration run, Duration tail) {
        List<Window> windows = new ArrayList<>();
        for (Duration start = every; start.plus(length).plus(tail).compareTo(run) <= 0; start = start.plus(every)) {
            windows.add(new Window(start, length));
        }
        return windows;
    }

    List<Window> plan() {
        return plan;
    }

    /** Schedules the plan from {@code t0}, a {@link System#nanoTime()} reading taken at the start of the run. */
    void start(long t0) {
        for (Window w : plan) {
            thread.schedule(this::begin, t0 + w.start().toNanos() - System.nanoTime(), TimeUnit.NANOSECONDS);
            thread.schedule(this::end, t0 + w.end().toNanos() - System.nanoTime(), TimeUnit.NANOSECONDS);
        }
    }

    boolean inProgress() {
        return current != null;
    }

    List<Done> done() {
        return List.copyOf(done);
    }

    /** Whole seconds of outage between {@code from} and {@code to}, the one going on included. */
    synchronized long secondsWithin(Instant from, Instant to) {
        long millis = 0;
        List<Done> all = new ArrayList<>(done);
        Instant now = current;
        if (now != null) {
            all.add(new Done(now, to));
        }
        for (Done d : all) {
            Instant a = d.start().isAfter(from) ? d.start() : from;
            Instant b = d.end().isBefore(to) ? d.end() : to;
            millis += Math.max(0, Duration.between(a, b).toMillis());
        }
        return Math.round(millis / 1000.0);
    }

    private synchronized void begin() {
        current = Instant.now();
        proxy.blackhole();
        SoakScenario.log("outage %d begins: the proxy blackholes %d connections", done.size() + 1, proxy.connections());
    }

    private void end() {
        Instant end;
        synchronized (this) {
            proxy.pass();
            end = Instant.now();
            done.add(new Done(current, end));
            current = null;
        }
        SoakScenario.log("outage %d ends: the proxy passes again", done.size());
        onEnd.accept(end);
    }

    /** Cancels what is left of the plan and heals the proxy. */
    @Override
    public void close() throws InterruptedException {
        thread.shutdownNow();
        thread.awaitTermination(5, TimeUnit.SECONDS);
        synchronized (this) {
            if (current != null) {
                proxy.pass();
                done.add(new Done(current, Instant.now()));
                current = null;
            }
        }
    }
}
