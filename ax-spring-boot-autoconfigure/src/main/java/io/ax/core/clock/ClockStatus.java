package io.ax.core.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What the clock-jump detector has seen.
 *
 * @param paused whether trigger decisions wait now, after a jump
 * @param pauseLeft how long they still wait; zero when not paused
 * @param jumps how many jumps were seen since the start
 * @param lastJump the last jump (negative: the wall clock went back); null when none was seen
 * @param lastJumpAt when the last jump was seen, in wall-clock time after it; null when none was seen
 */
public record ClockStatus(boolean paused, Duration pauseLeft, long jumps, Duration lastJump, Instant lastJumpAt) {

    public ClockStatus {
        Objects.requireNonNull(pauseLeft, "pauseLeft");
    }
}
