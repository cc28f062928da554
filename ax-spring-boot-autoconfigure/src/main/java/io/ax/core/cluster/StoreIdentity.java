package io.ax.core.cluster;

/**
 * Which server a store is, as far as it can tell: read by a node every heartbeat, so that it notices when the store
 * it writes to became another server, or the same system on an earlier line of history (an old primary back).
 * Implementations are thread-safe.
 */
public interface StoreIdentity {

    /**
     * What the store says of itself now.
     *
     * @throws RuntimeException when the store cannot be reached (the round that asked fails as with any call)
     */
    Reading read();

    /**
     * One reading.
     *
     * @param system the system the server belongs to: PostgreSQL's system identifier, which a base backup (a standby)
     *     keeps and a new {@code initdb} changes; MySQL's {@code server_uuid}, which each server has of its own; null
     *     when the store tells none
     * @param timeline the line of history the server writes on: PostgreSQL's timeline, which a promotion raises by
     *     one; 0 when the store tells none
     * @param server the one server answering, where the store tells only that (MySQL's {@code server_uuid}, its own
     *     for each server, so that a failover, caught up or not, changes it); null when it tells none
     */
    record Reading(String system, long timeline, String server) {

        /** A store that tells nothing of itself. */
        public static final Reading UNKNOWN = new Reading(null, 0, null);

        public Reading {
            if (timeline < 0) {
                throw new IllegalArgumentException("a timeline is 0 (unknown) or more, was " + timeline);
            }
        }

        /** A reading of a system and its timeline, without a server of its own. */
        public Reading(String system, long timeline) {
            this(system, timeline, null);
        }
    }
}
