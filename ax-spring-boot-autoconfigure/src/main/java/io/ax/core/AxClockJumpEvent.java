package io.ax.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Published (as a Spring application event, when running in Spring) when the wall clock jumps against the
 * monotonic clock by more than the threshold; trigger decisions then wait for {@code pause}.
 *
 * @param jump how far the wall clock moved beyond the monotonic clock; negative when it went back
 * @param detectedAt the wall-clock time, after the jump, when it was noticed
 * @param pause how long trigger decisions wait
 */
public record AxClockJumpEvent(Duration jump, Instant detectedAt, Duration pause) {

    /**
     * Checks that no component is null.
     *
     * @param jump how far the wall clock moved beyond the monotonic clock; negative when it went back
     * @param detectedAt the wall-clock time, after the jump, when it was noticed
     * @param pause how long trigger decisions wait
     * @throws NullPointerException when a component is null
     */
    public AxClockJumpEvent {
        Objects.requireNonNull(jump, "jump");
        Objects.requireNonNull(detectedAt, "detectedAt");
        Objects.requireNonNull(pause, "pause");
    }

    /** {@return true when the wall clock jumped forwards, false when it went back} */
    public boolean forwards() {
        return !jump.isNegative();
    }
}
