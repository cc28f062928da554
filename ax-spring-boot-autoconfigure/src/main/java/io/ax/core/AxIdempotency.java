package io.ax.core;

import java.time.Duration;

/**
 * Idempotency keys for business code: AX runs a task at least once, and a handler that must have an effect exactly
 * once claims a key for it first. The key is shared by every node of the cluster (Redis when present, else the
 * database, else this JVM). Implementations are thread-safe.
 *
 * <p>With Redis, a claim falls back to the database (or this JVM) while Redis is down. A key claimed on Redis just
 * before an outage is unknown to the fallback, so a repeat during the outage may count as a first.
 */
public interface AxIdempotency {

    /**
     * Claims {@code key} for {@code ttl}: true for exactly one caller until the claim expires, false for every other
     * caller meanwhile, on any node.
     *
     * @param key the effect's key, e.g. {@code "invoice-mail:" + orderId}; not blank, at most 200 characters
     * @param ttl how long the claim lasts; positive. Choose it longer than the window in which a repeat can come
     * @return whether this caller is the first
     * @throws IllegalArgumentException when the key is blank or too long, or the ttl is not positive
     * @throws AxException when no store can be reached to decide
     */
    boolean claim(String key, Duration ttl);

    /** The longest key accepted, in characters. */
    int MAX_KEY_LENGTH = 200;

    /**
     * Checks a key and a ttl as {@link #claim} promises; for implementations.
     *
     * @param key the key to check
     * @param ttl the ttl to check
     * @throws IllegalArgumentException naming what is wrong: a null, blank or too long key, a null or not positive ttl
     */
    static void check(String key, Duration ttl) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("an idempotency key must not be blank");
        }
        if (key.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("an idempotency key has at most " + MAX_KEY_LENGTH + " characters, '"
                    + key.substring(0, 20) + "...' has " + key.length());
        }
        if (ttl == null || ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("the ttl of idempotency key '" + key + "' must be positive, was " + ttl);
        }
    }
}
