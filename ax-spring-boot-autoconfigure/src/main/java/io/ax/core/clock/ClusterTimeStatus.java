package io.ax.core.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The offset of this node's clock from the cluster's reference clock, as last measured.
 *
 * @param source the reference clock that gave it ({@code redis}, {@code database}); {@code none} before any reading
 * @param offset how far the reference clock is ahead of this node's (negative: behind), at the least: added to local
 *     time, it never puts this node's clock ahead of the reference
 * @param uncertainty how much larger the true offset may be: the round trip of the reading
 * @param measuredAt when it was measured, in cluster time; null before any reading
 * @param failing why the last reading failed (the offset is then the previous one's); null when it succeeded
 */
public record ClusterTimeStatus(
        String source, Duration offset, Duration uncertainty, Instant measuredAt, String failing) {

    public ClusterTimeStatus {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(offset, "offset");
        Objects.requireNonNull(uncertainty, "uncertainty");
    }
}
