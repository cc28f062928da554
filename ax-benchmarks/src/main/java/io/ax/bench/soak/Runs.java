package io.ax.bench.soak;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the handlers saw, recorded as each attempt starts: lateness (start minus scheduled time, first attempts only,
 * since a retry's wait is by design), fires per minute, and work that ran twice. Thread-safe: every worker records
 * here at once.
 *
 * <p>A series that runs twice over (two chains of fires of one task, each at its own times) never repeats a fire,
 * so it is caught apart: two first attempts of a task whose fire times lie closer than half its period are a
 * <em>fork</em>.
 *
 * <p>A recurring fire is remembered by (task, fire time) with the instance that ran it and the attempts seen, for
 * {@link #TRACK_MILLIS} after its fire time only, so that what the soak holds itself stays bounded and does not
 * blur the heap readings; the audit check at the end covers the whole run.
 */
final class Runs {

    /** How long a fire is remembered for the duplicate check; far beyond any outage and retry of this workload. */
    static final long TRACK_MILLIS = 10 * 60_000L;

    private static final int EXAMPLES = 5;

    private record Fire(String task, long scheduledMillis) {}

    /** The instance that ran a fire (its id's hash keeps the entry small) and the attempts that started, as bits. */
    private record Seen(int instanceHash, int attempts) {}

    private final Recorder lateness = new Recorder(3);
    private final LongAdder fires = new LongAdder();
    private final LongAdder delayedRuns = new LongAdder();
    private final LongAdder early = new LongAdder();
    private final LongAdder duplicates = new LongAdder();
    private final Map<Fire, Seen> recent = new ConcurrentHashMap<>();
    private final LongAdder forks = new LongAdder();
    /** Task to its period, in ms. */
    private final Map<String, Long> periodMillis = new ConcurrentHashMap<>();
    /** Task to the latest fire time of its first attempts seen, in ms. */
    private final Map<String, Long> latestFire = new ConcurrentHashMap<>();

    /** Guarded by itself: the first few duplicates, for the report. */
    private final List<String> examples = new ArrayList<>();

    /** The watch of the last outage's end; replaced as each outage ends. */
    private volatile Recovery recovery;

    Runs(Recovery initial, Map<String, Duration> periods) {
        this.recovery = initial;
        periods.forEach((task, period) -> periodMillis.put(task, period.toMillis()));
    }

    /** An attempt of a recurring task starts now. */
    void fireStarted(String task, String instanceId, int attempt, Instant scheduled, Instant now) {
        if (attempt == 1) {
            fires.increment();
            late(scheduled, now);
            recovery.started(task, now.toEpochMilli());
            checkFork(task, scheduled.toEpochMilli());
        }
        int bit = 1 << Math.min(attempt - 1, 30);
        int hash = instanceId.hashCode();
        recent.compute(new Fire(task, scheduled.toEpochMilli()), (fire, seen) -> {
            if (seen == null) {
                return new Seen(hash, bit);
            }
            if (seen.instanceHash() != hash) {
                duplicate("fire " + task + " @ " + scheduled + " ran as a second instance " + instanceId);
            } else if ((seen.attempts() & bit) != 0) {
                duplicate("attempt " + attempt + " of " + instanceId + " (" + task + " @ " + scheduled + ") ran twice");
            }
            return new Seen(seen.instanceHash(), seen.attempts() | bit);
        });
    }

    /** A delayed execution starts now; {@code twice} when the ledger saw it run before. */
    void delayedStarted(long seq, boolean twice, Instant scheduled, Instant now) {
        delayedRuns.increment();
        late(scheduled, now);
        if (twice) {
            duplicate("delayed execution " + seq + " ran twice");
        }
    }

    /** Starts watching every task for its first fire after an outage that ended now. */
    void outageEnded(Recovery next) {
        recovery = next;
    }

    Recovery recovery() {
        return recovery;
    }

    /** Lateness since the last call, in ms. */
    Histogram latenessSinceLastCall() {
        return lateness.getIntervalHistogram();
    }

    long fires() {
        return fires.sum();
    }

    long delayedRuns() {
        return delayedRuns.sum();
    }

    long early() {
        return early.sum();
    }

    long duplicates() {
        return duplicates.sum();
    }

    long forks() {
        return forks.sum();
    }

    List<String> examples() {
        synchronized (examples) {
            return List.copyOf(examples);
        }
    }

    /** Forgets fires older than {@link #TRACK_MILLIS}; returns how many are remembered. */
    int forgetBefore(Instant now) {
        long cutoff = now.toEpochMilli() - TRACK_MILLIS;
        recent.keySet().removeIf(f -> f.scheduledMillis() < cutoff);
        return recent.size();
    }

    private void checkFork(String task, long scheduledMillis) {
        long half = periodMillis.getOrDefault(task, 0L) / 2;
        latestFire.merge(task, scheduledMillis, (latest, fire) -> {
            if (Math.abs(fire - latest) < half) {
                forks.increment();
                example("fires of " + task + " " + Math.abs(fire - latest) + " ms apart (period " + 2 * half + " ms)");
            }
            return Math.max(latest, fire);
        });
    }

    private void late(Instant scheduled, Instant now) {
        long millis = now.toEpochMilli() - scheduled.toEpochMilli();
        if (millis < 0) {
            early.increment();
            millis = 0;
        }
        lateness.recordValue(millis);
    }

    private void duplicate(String what) {
        duplicates.increment();
        example(what);
    }

    private void example(String what) {
        synchronized (examples) {
            if (examples.size() < EXAMPLES) {
                examples.add(what);
            }
        }
    }
}
