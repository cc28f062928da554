package io.ax.core.clock;

import java.time.Instant;
import java.util.Objects;

/**
 * A clock every node of a cluster reads alike: the database's or Redis's. {@link ClusterTime} measures this node's
 * offset from it. Implementations are thread-safe.
 */
public interface TimeReference {

    /**
     * Reads the reference clock now, in one round trip.
     *
     * @throws RuntimeException when it cannot be read
     */
    Instant read();

    /**
     * Reads the reference clock and says when, on {@code local}'s clocks: the reading was taken somewhere inside the
     * bracket, so the narrower the bracket, the closer the offset. By default the bracket is the whole call of {@link
     * #read()}; an implementation whose call first waits for something else (a free connection of a pool, say)
     * brackets only the round trip, since a wait at the start of the bracket would otherwise make the reference look
     * ahead by up to the wait.
     *
     * @throws RuntimeException when it cannot be read
     */
    default Reading read(AxClock local) {
        long before = local.nanoTime();
        Instant localBefore = local.instant();
        Instant remote = read();
        return new Reading(localBefore, local.nanoTime() - before, remote);
    }

    /** What it is, for people: {@code redis}, {@code database}. */
    String name();

    /**
     * One reading of the reference.
     *
     * @param localBefore the local wall clock read right before the request
     * @param roundTripNanos the monotonic time from right before that wall-clock reading to the answer
     * @param remote the reference's time
     */
    record Reading(Instant localBefore, long roundTripNanos, Instant remote) {

        public Reading {
            Objects.requireNonNull(localBefore, "localBefore");
            Objects.requireNonNull(remote, "remote");
        }

        /**
         * The least the reference can be ahead of the local wall clock by this reading: the reference was read at
         * the latest at the end of the round trip. A clock corrected by it is never ahead of the reference (the truth
         * lies up to one round trip above it), so nothing that waits for a time on it starts before that time.
         */
        long lowestOffsetNanos() {
            return java.time.Duration.between(localBefore, remote).toNanos() - roundTripNanos;
        }
    }
}
