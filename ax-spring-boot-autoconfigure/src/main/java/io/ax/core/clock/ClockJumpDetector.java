package io.ax.core.clock;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Notices when the wall clock jumps against the monotonic clock (an NTP step, an operator, a resumed virtual
 * machine) and asks for a short pause of trigger decisions afterwards, so that fire times are not decided on a
 * clock that is being corrected.
 *
 * <p>Each {@link #check()} compares how far the wall clock moved since the previous check with how far the
 * monotonic clock moved; a difference beyond the threshold, in either direction, is a jump. The period between
 * checks does not matter (a stalled checker only compares a longer span), so a GC pause is never a jump. Each jump
 * logs one WARN line.
 *
 * <p>Thread-safe: checks are serialized on this object; the status is read without locking.
 */
public final class ClockJumpDetector {

    private static final System.Logger LOG = System.getLogger(ClockJumpDetector.class.getName());

    private final AxClock clock;
    private final Duration threshold;
    private final Duration pause;

    private Instant lastWall; // guarded by this
    private long lastNanos; // guarded by this
    private volatile boolean pausedOnce;
    private volatile long pauseEndNanos;
    private volatile long jumps;
    private volatile Duration lastJump;
    private volatile Instant lastJumpAt;

    /**
     * Starts comparing from the clocks' present readings.
     *
     * @param clock the clocks to compare
     * @param threshold the largest difference that is not a jump; positive
     * @param pause how long trigger decisions wait after a jump; zero or positive
     * @throws IllegalArgumentException when the threshold is not positive or the pause is negative
     */
    public ClockJumpDetector(AxClock clock, Duration threshold, Duration pause) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.threshold = Objects.requireNonNull(threshold, "threshold");
        this.pause = Objects.requireNonNull(pause, "pause");
        if (threshold.isZero() || threshold.isNegative()) {
            throw new IllegalArgumentException("clock jump threshold must be positive, was " + threshold);
        }
        if (pause.isNegative()) {
            throw new IllegalArgumentException("clock pause must not be negative, was " + pause);
        }
        this.lastWall = clock.instant();
        this.lastNanos = clock.nanoTime();
    }

    /**
     * Compares the clocks' progress since the previous check. On a jump beyond the threshold it starts (or
     * extends) the pause, counts it and logs one WARN line.
     *
     * @return the jump: how far the wall clock moved beyond the monotonic clock (negative: backwards); empty when
     *     the clocks agree within the threshold
     */
    public synchronized Optional<Duration> check() {
        Instant wall = clock.instant();
        long nanos = clock.nanoTime();
        Duration jump = Duration.between(lastWall, wall).minusNanos(nanos - lastNanos);
        lastWall = wall;
        lastNanos = nanos;
        if (jump.abs().compareTo(threshold) <= 0) {
            return Optional.empty();
        }
        pauseEndNanos = nanos + pause.toNanos();
        pausedOnce = true;
        lastJump = jump;
        lastJumpAt = wall;
        jumps++;
        LOG.log(
                Level.WARNING,
                "The wall clock jumped {0} by {1} ms against the monotonic clock (threshold {2} ms); "
                        + "trigger decisions wait {3} ms",
                jump.isNegative() ? "backwards" : "forwards",
                Long.toString(jump.abs().toMillis()),
                Long.toString(threshold.toMillis()),
                Long.toString(pause.toMillis()));
        return Optional.of(jump);
    }

    /** Whether trigger decisions wait now, after a jump. */
    public boolean isPaused() {
        return pausedOnce && clock.nanoTime() - pauseEndNanos < 0;
    }

    /**
     * When a fire that the monotonic clock says is due should wait instead: until the end of a pause, or, when the
     * wall clock says its fire time is still ahead by more than the threshold (the wall clock went back), until
     * the wall clock reaches it. So nothing fires before its time by either clock.
     *
     * @param fireTime the fire time, in wall-clock terms
     * @return the monotonic time to wait until; empty when the fire may go now
     */
    public OptionalLong holdUntil(Instant fireTime) {
        if (isPaused()) {
            return OptionalLong.of(pauseEndNanos);
        }
        long nanos = clock.nanoTime();
        Duration ahead = Duration.between(clock.instant(), fireTime);
        if (ahead.compareTo(threshold) > 0) {
            return OptionalLong.of(nanos + ahead.toNanos());
        }
        return OptionalLong.empty();
    }

    /** A snapshot: whether paused and for how long still, how many jumps, the last one. */
    public ClockStatus status() {
        long left = pausedOnce ? pauseEndNanos - clock.nanoTime() : 0;
        return new ClockStatus(left > 0, Duration.ofNanos(Math.max(0, left)), jumps, lastJump, lastJumpAt);
    }

    /** The largest difference between the clocks that is not a jump. */
    public Duration threshold() {
        return threshold;
    }

    /** How long trigger decisions wait after a jump. */
    public Duration pause() {
        return pause;
    }
}
