package io.ax.core.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The lease as the store sees it now.
 *
 * @param holder the node that holds or last held it; null when never taken
 * @param epoch its epoch; 0 when never taken
 * @param expiresAt when it expires (or expired), on the store's clock
 * @param remaining how long until then, on the store's clock; zero or negative when expired
 */
public record LeaderInfo(String holder, long epoch, Instant expiresAt, Duration remaining) {

    public LeaderInfo {
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(remaining, "remaining");
    }

    /** Whether a node holds it now. */
    public boolean held() {
        return holder != null && remaining.compareTo(Duration.ZERO) > 0; // Duration.isPositive() is Java 18+
    }
}
