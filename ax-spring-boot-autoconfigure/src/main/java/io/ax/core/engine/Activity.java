package io.ax.core.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the engines ran over a window, bucket by bucket, from the per-minute rollup every node keeps (see {@link
 * AxEngine#activity}). Percentiles of lateness are read from bins at most 12.5 % wide and are never below the true
 * value.
 *
 * @param cluster true when the counts are every node's on the store; false when they are this node's alone: the
 *     store keeps no rollup, or could not be read
 * @param unavailable why the store could not be read (the counts are then this node's last minutes only); null when
 *     it was read
 * @param bucket how long each bucket is
 * @param buckets the window's buckets, oldest first; the last may still be filling
 * @param latenessP50Millis median lateness of the window's fires (first attempts: start minus scheduled time); null
 *     without fires
 * @param latenessP99Millis its 99th percentile; null without fires
 */
public record Activity(
        boolean cluster,
        String unavailable,
        Duration bucket,
        List<Bucket> buckets,
        Long latenessP50Millis,
        Long latenessP99Millis) {

    public Activity {
        Objects.requireNonNull(bucket, "bucket");
        buckets = List.copyOf(buckets);
    }

    /**
     * One bucket of the window.
     *
     * @param start when it begins
     * @param fires first attempts that started in it
     * @param successes attempts that succeeded in it
     * @param failures attempts that failed in it (timeouts apart)
     * @param timeouts attempts that timed out in it
     * @param deadLetters instances that went DEAD in it
     * @param latenessP50Millis median lateness of its fires; null without fires
     * @param latenessP99Millis 99th percentile of their lateness; null without fires
     */
    public record Bucket(
            Instant start,
            long fires,
            long successes,
            long failures,
            long timeouts,
            long deadLetters,
            Long latenessP50Millis,
            Long latenessP99Millis) {}
}
