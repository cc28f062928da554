package io.ax.jdbc;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

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

    static Instant instant(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }
}
