package io.ax.core.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * How long finished history is kept, and how the leader deletes what is older (see {@link
 * io.ax.core.store.InstanceStore#deleteFinished}). The messages name the {@code ax.retention.*} properties, which
 * map one to one.
 *
 * @param enabled whether the leader deletes old history at all
 * @param finished how long SUCCESS, SKIPPED and CANCELLED instances are kept after they finished
 * @param dead how long DEAD instances (and their dead letters) are kept after they died; usually longer, so that an
 *     operator has time to look at them and replay them
 * @param interval how often the leader looks for expired history
 * @param batchSize how many instances one short transaction deletes at most; batches follow each other while full
 */
public record RetentionSettings(boolean enabled, Duration finished, Duration dead, Duration interval, int batchSize) {

    /**
     * The longest retention accepted: far beyond any use, and far from the limits of the stores' microsecond
     * times.
     */
    static final Duration LONGEST = Duration.ofDays(36_500);

    /** The largest batch: one transaction that deletes more holds its locks too long. */
    static final int LARGEST_BATCH = 10_000;

    public RetentionSettings {
        retention(finished, "ax.retention.finished");
        retention(dead, "ax.retention.dead");
        Objects.requireNonNull(interval, "ax.retention.interval");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("ax.retention.interval must be positive, was " + interval);
        }
        if (batchSize < 1 || batchSize > LARGEST_BATCH) {
            throw new IllegalArgumentException(
                    "ax.retention.batch-size must be between 1 and " + LARGEST_BATCH + ", was " + batchSize);
        }
    }

    /** Enabled: finished instances kept 7 days, DEAD ones 30 days, a look every minute, batches of 500. */
    public static RetentionSettings defaults() {
        return new RetentionSettings(true, Duration.ofDays(7), Duration.ofDays(30), Duration.ofMinutes(1), 500);
    }

    private static void retention(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d
                    + " (to keep history forever, set ax.retention.enabled=false)");
        }
        if (d.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException(name + " must be at most " + LONGEST.toDays() + " days, was " + d);
        }
    }
}
