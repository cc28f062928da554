package io.ax.core.cluster;

import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * A leader lease in this JVM's memory, for nodes that share no database: engines in one process, or tests that drive
 * time with a fake clock. It keeps the promises of the JDBC lease, with {@code clock.instant()} as the store's clock.
 * Thread-safe: every method holds the object's lock.
 */
public final class LocalLeaderLease implements LeaderLease {

    /** The longest lease the JDBC lease can store; refused here too, so that both behave alike. */
    private static final Duration MAX = Duration.of(Long.MAX_VALUE / 2, ChronoUnit.MICROS);

    private final AxClock clock;

    // guarded by this
    private String holder;
    private long epoch;
    private Instant expiresAt = Instant.EPOCH;

    /** @param clock the store's clock: expiry is measured on its {@link AxClock#instant() wall time} */
    public LocalLeaderLease(AxClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException when {@code duration} is not positive, or too long to store
     */
    @Override
    public synchronized Optional<Lease> acquire(String node, Duration duration) {
        Objects.requireNonNull(node, "node");
        check(duration);
        Instant now = clock.instant();
        boolean held = now.isBefore(expiresAt);
        if (held && !node.equals(holder)) {
            return Optional.empty();
        }
        if (!held) {
            epoch++; // a takeover, even by the node that held it last: its earlier term is over
        }
        holder = node;
        expiresAt = now.plus(duration);
        return Optional.of(new Lease(node, epoch, duration));
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException when {@code duration} is not positive, or too long to store
     */
    @Override
    public synchronized Optional<Lease> renew(Lease lease, Duration duration) {
        Objects.requireNonNull(lease, "lease");
        check(duration);
        Instant now = clock.instant();
        if (!heldBy(lease, now)) {
            return Optional.empty();
        }
        expiresAt = now.plus(duration);
        return Optional.of(new Lease(holder, epoch, duration));
    }

    @Override
    public synchronized void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        Instant now = clock.instant();
        if (heldBy(lease, now)) {
            expiresAt = now; // expired as of now; the holder stays as who last held it
        }
    }

    @Override
    public synchronized LeaderInfo current() {
        return new LeaderInfo(holder, epoch, expiresAt, Duration.between(clock.instant(), expiresAt));
    }

    private boolean heldBy(Lease lease, Instant now) {
        return lease.holder().equals(holder) && lease.epoch() == epoch && now.isBefore(expiresAt);
    }

    private static void check(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("a lease lasts a positive duration, was " + duration);
        }
        if (duration.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("a lease of " + duration + " is too long to store");
        }
    }
}
