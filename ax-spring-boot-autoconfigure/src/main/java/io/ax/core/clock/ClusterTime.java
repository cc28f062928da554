package io.ax.core.clock;

import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * This node's clock corrected to the cluster's reference clock (Redis {@code TIME} or the database's), so that
 * nodes whose clocks are skewed decide fire times alike. The reference was read somewhere inside a reading's round
 * trip; the offset applied is the least the reading allows (the reference read at the very end), so that the corrected
 * clock is never ahead of the reference and nothing starts before its time by it. The truth lies up to one round trip
 * above: that is the uncertainty, and how late a fire can be for it. (Taking the middle of the round trip would make
 * the clock up to half a round trip ahead whenever the reading waited at its start: a database pool without a free
 * connection makes that 100 ms and more, and delayed tasks would start that early.) Each measurement reads the
 * reference a few times and keeps the reading that allows the highest offset, the closest. It is refreshed
 * periodically from a thread of its own ({@code ax-cluster-time}); a failed refresh keeps the last offset and logs
 * once until a refresh succeeds again.
 *
 * <p>Only wall time is corrected: the monotonic clock is the local one. A change of the offset is a step of the wall
 * clock, so the engine's clock-jump guard treats a large one as a jump. Thread-safe.
 */
public final class ClusterTime implements AxClock {

    private static final System.Logger LOG = Loggers.get(ClusterTime.class.getName());
    private static final int READINGS = 3;
    private static final long JOIN_MILLIS = 1_000;

    private final AxClock local;
    private final TimeReference reference;
    private final Duration refresh;
    private final Thread thread;

    private volatile long offsetNanos;
    /** Readings that succeeded since the start: until the first, the offset is no measurement (zero). */
    private volatile long measurements;
    /** Local jumps made up for ({@link #localClockJumped}); guarded by this. */
    private long jumpsMadeUpFor;

    private volatile ClusterTimeStatus status = new ClusterTimeStatus("none", Duration.ZERO, Duration.ZERO, null, null);
    private volatile boolean running;

    /**
     * @param local this node's clocks
     * @param reference the cluster's reference clock
     * @param refresh how often the offset is measured again; positive
     */
    public ClusterTime(AxClock local, TimeReference reference, Duration refresh) {
        this.local = Objects.requireNonNull(local, "local");
        this.reference = Objects.requireNonNull(reference, "reference");
        this.refresh = Objects.requireNonNull(refresh, "refresh");
        if (refresh.isZero() || refresh.isNegative()) {
            throw new IllegalArgumentException("the cluster time refresh must be positive, was " + refresh);
        }
        this.thread = new Thread(this::loop, "ax-cluster-time");
        this.thread.setDaemon(true);
    }

    @Override
    public Instant instant() {
        return local.instant().plusNanos(offsetNanos);
    }

    @Override
    public long nanoTime() {
        return local.nanoTime();
    }

    /** The last measurement. */
    public ClusterTimeStatus status() {
        return status;
    }

    /**
     * Measures the offset now, on the calling thread, and applies it.
     *
     * @return whether the reference could be read; when not, the previous offset stays
     */
    public boolean measure() {
        long jumpsBefore;
        synchronized (this) {
            jumpsBefore = jumpsMadeUpFor;
        }
        TimeReference.Reading best = null;
        RuntimeException failure = null;
        for (int i = 0; i < READINGS; i++) {
            try {
                TimeReference.Reading reading = reference.read(local);
                if (best == null || reading.lowestOffsetNanos() > best.lowestOffsetNanos()) {
                    best = reading;
                }
            } catch (RuntimeException e) {
                failure = e;
                break; // one failed reading is enough to know: the next refresh tries again
            }
        }
        ClusterTimeStatus previous = status;
        if (best == null) {
            String why = String.valueOf(failure);
            if (previous.failing() == null) {
                LOG.log(
                        Level.WARNING,
                        "AX cannot read the {0} clock; the cluster time offset stays {1} ms until it can: {2}",
                        reference.name(),
                        Long.toString(previous.offset().toMillis()),
                        why);
            }
            status = new ClusterTimeStatus(
                    previous.source(), previous.offset(), previous.uncertainty(), previous.measuredAt(), why);
            return false;
        }
        if (previous.failing() != null) {
            LOG.log(Level.INFO, "AX reads the {0} clock again", reference.name());
        }
        synchronized (this) {
            if (jumpsMadeUpFor != jumpsBefore) {
                // the local clock jumped while it was read: this reading mixes both sides of the jump. The jump
                // asked for another measurement, which decides
                return true;
            }
            offsetNanos = best.lowestOffsetNanos();
            measurements++;
            status = new ClusterTimeStatus(
                    reference.name(),
                    Duration.ofNanos(offsetNanos),
                    Duration.ofNanos(best.roundTripNanos()),
                    instant(),
                    null);
        }
        return true;
    }

    /** The offset applied now: what {@link #instant()} adds to the local wall clock. */
    long offsetNanos() {
        return offsetNanos;
    }

    /** How many measurements have succeeded: 0 while the offset is not yet measured. */
    long measurements() {
        return measurements;
    }

    /**
     * The local wall clock jumped by {@code localJumpNanos}: the offset makes up for it at once, so the corrected
     * clock goes on as if nothing happened, and the refresh thread measures again now (rather than at the end of its
     * period) to confirm. Never blocks.
     */
    void localClockJumped(long localJumpNanos) {
        synchronized (this) {
            jumpsMadeUpFor++;
            offsetNanos -= localJumpNanos;
            ClusterTimeStatus s = status;
            status = new ClusterTimeStatus(
                    s.source(), Duration.ofNanos(offsetNanos), s.uncertainty(), s.measuredAt(), s.failing());
        }
        LockSupport.unpark(thread);
    }

    /** Measures once now, then every refresh period on its own thread until {@link #stop()}. Idempotent. */
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        measure();
        thread.start();
    }

    /** Stops refreshing; the last offset stays applied. Idempotent. */
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(JOIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        while (running) {
            LockSupport.parkNanos(this, refresh.toNanos()); // an early wake-up measures early (localClockJumped)
            if (!running) {
                return;
            }
            if (Thread.interrupted()) {
                LOG.log(Level.WARNING, "The AX cluster time refresh was interrupted; the offset stays as it is");
                Thread.currentThread().interrupt();
                return;
            }
            try {
                measure();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "The AX cluster time refresh failed; it goes on: {0}", e.toString());
            }
        }
    }

    /** How long between refreshes. */
    public Duration refresh() {
        return refresh;
    }
}
