package io.ax.core.clock;

import io.ax.core.logging.Loggers;
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
 * checks does not matter (a stalled checker only compares a longer span), so a GC pause is never a jump; one that
 * falls between the readings of a check makes that check pass. Each jump logs one WARN line.
 *
 * <p>With a {@link ClusterTime}, fire times are decided on this node's clock corrected by its offset from the
 * cluster's reference. Then the local clock is watched as above, and the offset apart. A local jump is made up for
 * in the offset at once (the corrected clock does not move) and measured again at once to confirm it; a new
 * measurement that moves the offset by more than the threshold is a jump too (the reference stepped). So a node
 * whose clock is skewed takes its first offset as it is, and one real jump of the local clock is one jump, not a
 * second, reverse one when the next measurement makes up for it. The comparison starts from the clocks as they are
 * at {@link #rebase()}, which the engine calls once the offset is first measured.
 *
 * <p>Thread-safe: checks are serialized on this object; the status is read without locking.
 */
public final class ClockJumpDetector {

    private static final System.Logger LOG = Loggers.get(ClockJumpDetector.class.getName());

    /** The clock fire times are decided on (the local one corrected by the cluster time, when there is one). */
    private final AxClock clock;
    /** The clock whose wall time is compared with its monotonic time. */
    private final AxClock local;
    /** The offset to the cluster's reference, or null. */
    private final ClusterTime clusterTime;

    private final Duration threshold;
    private final Duration pause;

    private Instant lastWall; // guarded by this
    private long lastNanos; // guarded by this
    private long lastOffsetNanos; // guarded by this
    private long lastMeasurements; // guarded by this

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
        this(clock, null, threshold, pause);
    }

    /**
     * Starts comparing from the clocks' present readings: {@code local}'s wall and monotonic time, and the offset
     * {@code clusterTime} applies to it.
     *
     * @param local this node's clocks, without the offset
     * @param clusterTime the offset to the cluster's reference, which fire times are decided on; null for none
     * @throws IllegalArgumentException when the threshold is not positive or the pause is negative
     */
    public ClockJumpDetector(AxClock local, ClusterTime clusterTime, Duration threshold, Duration pause) {
        this.local = Objects.requireNonNull(local, "clock");
        this.clusterTime = clusterTime;
        this.clock = clusterTime != null ? clusterTime : local;
        this.threshold = Objects.requireNonNull(threshold, "threshold");
        this.pause = Objects.requireNonNull(pause, "pause");
        if (threshold.isZero() || threshold.isNegative()) {
            throw new IllegalArgumentException("clock jump threshold must be positive, was " + threshold);
        }
        if (pause.isNegative()) {
            throw new IllegalArgumentException("clock pause must not be negative, was " + pause);
        }
        rebase();
    }

    /** Compares from now on: the clocks as they are now are the baseline (the first offset, say). */
    public synchronized void rebase() {
        lastWall = local.instant();
        lastNanos = local.nanoTime();
        if (clusterTime != null) {
            lastOffsetNanos = clusterTime.offsetNanos();
            lastMeasurements = clusterTime.measurements();
        }
    }

    /**
     * Compares the clocks' progress since the previous check. On a jump beyond the threshold it starts (or
     * extends) the pause, counts it and logs one WARN line.
     *
     * @return the jump: how far the wall clock moved beyond the monotonic clock (negative: backwards); empty when
     *     the clocks agree within the threshold
     */
    public synchronized Optional<Duration> check() {
        long nanos = local.nanoTime();
        Instant wall = local.instant();
        long after = local.nanoTime();
        if (after - nanos > threshold.toNanos() / 4) {
            // this thread stood still between the readings (a GC pause, no core free): which monotonic time goes with
            // the wall clock's is not known closely enough to tell a jump, and a stall taken for one moves the
            // offset by it. The next check compares from the same baseline
            return Optional.empty();
        }
        Duration jump = Duration.between(lastWall, wall).minusNanos(nanos - lastNanos);
        lastWall = wall;
        lastNanos = nanos;
        boolean localJump = jump.abs().compareTo(threshold) > 0;
        if (localJump && clusterTime != null) {
            // the offset makes up for the jump at once (so a fire time decided from now on is right), and a new
            // measurement confirms it; the offset's change by the jump is explained, not a step of the reference
            clusterTime.localClockJumped(jump.toNanos());
            lastOffsetNanos -= jump.toNanos();
        }
        String what = "The wall clock jumped {0} by {1} ms against the monotonic clock";
        if (clusterTime != null && clusterTime.measurements() != lastMeasurements) {
            long offset = clusterTime.offsetNanos();
            boolean first = lastMeasurements == 0;
            // what the new offset moves the corrected clock by (the local jumps since the last were made up for)
            long moved = offset - lastOffsetNanos;
            lastOffsetNanos = offset;
            lastMeasurements = clusterTime.measurements();
            if (!first && !localJump && Math.abs(moved) > threshold.toNanos()) {
                jump = Duration.ofNanos(moved);
                localJump = true;
                what = "The cluster''s reference clock moved {0} by {1} ms against this node''s clock";
            }
        }
        if (!localJump) {
            return Optional.empty();
        }
        pauseEndNanos = nanos + pause.toNanos();
        pausedOnce = true;
        lastJump = jump;
        lastJumpAt = clock.instant();
        jumps++;
        LOG.log(
                Level.WARNING,
                what + " (threshold {2} ms); trigger decisions wait {3} ms",
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
        // the wall clock first: a stall between the two readings then makes the hold longer, never shorter
        Instant wall = clock.instant();
        long nanos = clock.nanoTime();
        Duration ahead = Duration.between(wall, fireTime);
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
