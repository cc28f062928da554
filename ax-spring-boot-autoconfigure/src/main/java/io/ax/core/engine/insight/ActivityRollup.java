package io.ax.core.engine.insight;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.Activity;
import io.ax.core.engine.EngineObserver;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.threads.NamedThreadFactory;
import io.ax.core.store.ActivityRow;
import io.ax.core.store.ActivityStore;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * This node's share of the activity rollup: it counts, per minute and task, the fires, outcomes and dead letters the
 * engine reports, keeps the last {@value #MINUTES_KEPT} minutes in memory, and writes the minutes that changed to the
 * {@link ActivityStore} on its own thread ({@code ax-activity-1}) every flush interval. The rows it writes hold the
 * whole minute's counts so far, so a write that failed is simply made again by the next flush, and one repeated after
 * a doubtful commit changes nothing.
 *
 * <p>{@link #read} answers for every node on the store: their rows, with this node's freshest counts in place of its
 * own rows for the minutes it still keeps (the other nodes' are at most a flush interval old). When the store cannot
 * be read it answers with what this node keeps, and says why.
 *
 * <p>Thread-safe: the engine's threads count under this object's lock, which guards a few increments and a small
 * map; the store is called outside it.
 */
public final class ActivityRollup implements EngineObserver {

    private static final System.Logger LOG = EngineLog.get();

    /** How many minutes, the current one included, this node keeps in memory (and writes again when they change). */
    static final int MINUTES_KEPT = 10;

    private static final long MINUTE_MILLIS = 60_000;

    /** One task's (or all tasks') counts of one minute, and the change of them last written. */
    private static final class Counts {
        long fires;
        long successes;
        long failures;
        long timeouts;
        long deadLetters;
        final LatenessHistogram lateness = new LatenessHistogram();
        /** Bumped by every change; {@link #written} is the change the store last took. */
        long changes;

        long written;

        ActivityRow row(long minute, String task, String node, String writer) {
            return new ActivityRow(
                    Instant.ofEpochMilli(minute * MINUTE_MILLIS),
                    task,
                    node,
                    writer,
                    fires,
                    successes,
                    failures,
                    timeouts,
                    deadLetters,
                    lateness.encode());
        }
    }

    private final ActivityStore store;
    /** Whether other nodes write to the same store: then a read answers for the cluster. */
    private final boolean shared;

    private final String node;
    /** This process's own id in the rows, beside the node's: a restarted node never overwrites its earlier run's. */
    private final String writer = Long.toHexString(new SecureRandom().nextLong());

    private final AxClock clock;
    private final Duration flushEvery;
    /** Minute (since the epoch) -> task (or {@link ActivityRow#ALL_TASKS}) -> counts; guarded by this. */
    private final TreeMap<Long, Map<String, Counts>> minutes = new TreeMap<>();

    private final ScheduledThreadPoolExecutor thread;
    /**
     * Held by a flush from its read of the counts to its note of what the store took: two flushes one after the
     * other never let an older write land after a newer one unseen.
     */
    private final Object flushing = new Object();
    /** Whether the last write failed: an outage is logged once, when it begins. */
    private volatile boolean failing;

    /** Changed minutes dropped from memory before the store took them (the store was out for minutes). */
    private long lost; // guarded by this

    /**
     * @param store where the rows go
     * @param shared whether other nodes share {@code store}
     * @param node this node's id
     * @param clock the engine's clock: minutes are its wall-clock minutes
     * @param flushEvery how often the changed minutes are written
     */
    public ActivityRollup(ActivityStore store, boolean shared, String node, AxClock clock, Duration flushEvery) {
        this.store = store;
        this.shared = shared;
        this.node = node;
        this.clock = clock;
        this.flushEvery = flushEvery;
        this.thread = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory("ax-activity-", true));
        thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    public void start() {
        try {
            thread.scheduleWithFixedDelay(
                    this::flushQuietly, flushEvery.toNanos(), flushEvery.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopped) {
            // stopped before it started
        }
    }

    /**
     * Stops the thread, after a flush it is in the middle of; the engine then calls {@link #flushQuietly} once more,
     * bounded, so that a graceful stop loses no count.
     */
    public void stop() {
        thread.shutdown(); // no interrupt: a flush under way ends by itself, before the last one begins
    }

    @Override
    public void started(AxTask task, int attempt, Duration lateness, Duration ackLatency) {
        if (attempt != 1) {
            return; // a retry's lateness includes its back-off: not what "late" means to an operator
        }
        long millis = lateness.toMillis();
        count(task, c -> {
            c.fires++;
            c.lateness.record(millis);
        });
    }

    @Override
    public void finished(AxTask task, InstanceState outcome, Duration took) {
        switch (outcome) {
            case SUCCESS -> count(task, c -> c.successes++);
            case TIMEOUT -> count(task, c -> c.timeouts++);
            default -> count(task, c -> c.failures++);
        }
    }

    @Override
    public void deadLettered(AxTask task) {
        count(task, c -> c.deadLetters++);
    }

    private interface Change {
        void apply(Counts counts);
    }

    private void count(AxTask task, Change change) {
        long minute = minuteOf(clock.instant());
        synchronized (this) {
            Map<String, Counts> tasks = minutes.get(minute);
            if (tasks == null) {
                tasks = new HashMap<>();
                minutes.put(minute, tasks);
                forgetBefore(minute - MINUTES_KEPT + 1);
            }
            for (String key : new String[] {task.name(), ActivityRow.ALL_TASKS}) {
                Counts c = tasks.computeIfAbsent(key, k -> new Counts());
                change.apply(c);
                c.changes++;
            }
        }
    }

    /** Drops the minutes before {@code first}, counting those the store never took. Under this object's lock. */
    private void forgetBefore(long first) {
        while (!minutes.isEmpty() && minutes.firstKey() < first) {
            Map<String, Counts> dropped = minutes.pollFirstEntry().getValue();
            if (dropped.values().stream().anyMatch(c -> c.changes != c.written)) {
                lost++;
            }
        }
    }

    /** {@link #flush}, a failure logged (once per outage) instead of thrown. */
    public void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.log(
                        Level.WARNING,
                        "The activity rollup could not be written; trying again every {0} (logged once until it"
                                + " works): {1}",
                        flushEvery,
                        e.toString());
            }
        }
    }

    /**
     * Writes every kept minute that changed since its last write, in one call to the store.
     *
     * @return how many rows were written
     * @throws RuntimeException when the store fails; the rows stay changed, for the next flush
     */
    int flush() {
        synchronized (flushing) {
            return flushChanged();
        }
    }

    private int flushChanged() {
        List<ActivityRow> rows = new ArrayList<>();
        List<Counts> taken = new ArrayList<>();
        List<Long> versions = new ArrayList<>();
        long dropped;
        synchronized (this) {
            forgetBefore(minuteOf(clock.instant()) - MINUTES_KEPT + 1);
            for (Map.Entry<Long, Map<String, Counts>> m : minutes.entrySet()) {
                for (Map.Entry<String, Counts> t : m.getValue().entrySet()) {
                    Counts c = t.getValue();
                    if (c.changes != c.written) {
                        rows.add(c.row(m.getKey(), t.getKey(), node, writer));
                        taken.add(c);
                        versions.add(c.changes);
                    }
                }
            }
            dropped = lost;
            lost = 0;
        }
        if (dropped > 0) {
            LOG.log(
                    Level.WARNING,
                    "The activity rollup dropped {0} minute(s) that the store did not take in time; the charts miss"
                            + " them",
                    dropped);
        }
        if (rows.isEmpty()) {
            return 0;
        }
        store.save(rows);
        synchronized (this) {
            for (int i = 0; i < taken.size(); i++) {
                taken.get(i).written = versions.get(i);
            }
        }
        if (failing) {
            failing = false;
            LOG.log(Level.INFO, "The activity rollup is written again");
        }
        return rows.size();
    }

    /** The longest window {@link #last} reads. */
    public static final Duration MAX_WINDOW = Duration.ofDays(1);

    /**
     * The activity of {@code task} (or of all tasks, when null) over the last {@code window}, in buckets of {@code
     * bucket}, the last bucket ending with the current minute.
     *
     * @throws IllegalArgumentException when the window or the bucket is not a positive whole number of minutes, the
     *     window is longer than {@link #MAX_WINDOW}, or the bucket does not divide it
     */
    public Activity last(String task, Duration window, Duration bucket) {
        long windowMinutes = wholeMinutes(window, "window");
        long bucketMinutes = wholeMinutes(bucket, "bucket");
        if (windowMinutes > MAX_WINDOW.toMinutes() || windowMinutes % bucketMinutes != 0) {
            throw new IllegalArgumentException("the window must be at most " + MAX_WINDOW.toMinutes()
                    + " minutes and a multiple of the bucket, was " + windowMinutes + " and " + bucketMinutes);
        }
        long now = minuteOf(clock.instant());
        Instant from = Instant.ofEpochSecond((now - windowMinutes + 1) * 60);
        Instant to = Instant.ofEpochSecond((now + 1) * 60);
        return read(task, from, to, (int) bucketMinutes);
    }

    private static long wholeMinutes(Duration d, String what) {
        if (d == null || d.isNegative() || d.isZero() || d.toSeconds() % 60 != 0 || d.toNanosPart() != 0) {
            throw new IllegalArgumentException(what + " must be a positive whole number of minutes, was " + d);
        }
        return d.toMinutes();
    }

    /**
     * The activity of {@code task} (or of all tasks, when null) in the minutes of {@code [from, to)}, summed over
     * every node on the store, in buckets of {@code bucketMinutes} minutes, the first starting at {@code from}.
     */
    public Activity read(String task, Instant from, Instant to, int bucketMinutes) {
        String key = task == null ? ActivityRow.ALL_TASKS : task;
        long first = minuteOf(from);
        long end = minuteOf(to.plusMillis(MINUTE_MILLIS - 1)); // a partial last minute counts
        int buckets = (int) Math.max(1, (end - first + bucketMinutes - 1) / bucketMinutes);
        Summed[] sums = new Summed[buckets];
        for (int i = 0; i < buckets; i++) {
            sums[i] = new Summed();
        }
        List<ActivityRow> rows = new ArrayList<>();
        java.util.Set<Long> mine = new java.util.HashSet<>();
        synchronized (this) {
            for (Map.Entry<Long, Map<String, Counts>> m :
                    minutes.subMap(first, end).entrySet()) {
                mine.add(m.getKey());
                Counts c = m.getValue().get(key);
                if (c != null) {
                    rows.add(c.row(m.getKey(), key, node, writer));
                }
            }
        }
        String unavailable = null;
        try {
            Instant start = Instant.ofEpochMilli(first * MINUTE_MILLIS);
            for (ActivityRow r : store.find(key, start, Instant.ofEpochMilli(end * MINUTE_MILLIS))) {
                // this process's own rows of the minutes it still keeps are older than what it keeps
                if (!(writer.equals(r.writer()) && mine.contains(minuteOf(r.minute())))) {
                    rows.add(r);
                }
            }
        } catch (RuntimeException e) {
            unavailable = e.toString();
        }
        LatenessHistogram all = new LatenessHistogram();
        for (ActivityRow r : rows) {
            int i = (int) ((minuteOf(r.minute()) - first) / bucketMinutes);
            if (i >= 0 && i < buckets) {
                sums[i].add(r);
            }
        }
        List<Activity.Bucket> answer = new ArrayList<>(buckets);
        for (int i = 0; i < buckets; i++) {
            Summed s = sums[i];
            s.lateness.addTo(all);
            answer.add(new Activity.Bucket(
                    Instant.ofEpochMilli((first + (long) i * bucketMinutes) * MINUTE_MILLIS),
                    s.fires,
                    s.successes,
                    s.failures,
                    s.timeouts,
                    s.deadLetters,
                    s.lateness.percentile(0.5),
                    s.lateness.percentile(0.99)));
        }
        return new Activity(
                shared && unavailable == null,
                unavailable,
                Duration.ofMinutes(bucketMinutes),
                answer,
                all.percentile(0.5),
                all.percentile(0.99));
    }

    /** A bucket's sums while a read adds rows up. */
    private static final class Summed {
        long fires;
        long successes;
        long failures;
        long timeouts;
        long deadLetters;
        final LatenessHistogram lateness = new LatenessHistogram();

        void add(ActivityRow r) {
            fires += r.fires();
            successes += r.successes();
            failures += r.failures();
            timeouts += r.timeouts();
            deadLetters += r.deadLetters();
            lateness.addEncoded(r.lateness());
        }
    }

    public static long minuteOf(Instant time) {
        return Math.floorDiv(time.toEpochMilli(), MINUTE_MILLIS);
    }
}
