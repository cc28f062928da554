package io.ax.core.clock;

import java.time.Instant;

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

    /** What it is, for people: {@code redis}, {@code database}. */
    String name();
}
