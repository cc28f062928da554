package io.ax.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Times as AX's tables hold them: microseconds since the epoch in a BIGINT, so every vendor stores the same value and
 * nothing depends on the database's time zone.
 */
final class Micros {

    private Micros() {}

    static long of(Instant t) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, t);
    }

    /** The least whole microsecond not before {@code t}: {@code us < above(t)} exactly when before t. */
    static long above(Instant t) {
        long us = of(t);
        return t.getNano() % 1_000 == 0 ? us : us + 1;
    }

    /** The longest lease whose expiry, added to the database's clock, still fits in a BIGINT: ~146,000 years. */
    private static final long MAX_LEASE_MICROS = Long.MAX_VALUE / 2;

    /**
     * A lease's length in microseconds, for a statement that adds it to (or subtracts it from) the database's clock.
     *
     * @throws IllegalArgumentException when it is not positive, or too long to store
     */
    static long ofLease(Duration lease) {
        Objects.requireNonNull(lease, "lease");
        if (lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("a lease lasts a positive duration, was " + lease);
        }
        long us = TimeUnit.MICROSECONDS.convert(lease); // saturates instead of overflowing
        if (us > MAX_LEASE_MICROS) {
            throw new IllegalArgumentException("a lease of " + lease + " is too long to store");
        }
        return us;
    }

    static Instant instant(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }
}
