package io.ax.jdbc;

import io.ax.core.AxException;
import io.ax.core.AxIdempotency;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Idempotency keys in the database ({@code <prefix>idempotency}): the first insert of a key wins on its primary key;
 * a claim that has expired on the database's clock is taken over by one conditional update, which only one caller
 * can win. Every {@value #PURGE_EVERY} claims, up to {@value #PURGE_BATCH} expired rows are deleted, so the table
 * holds the live claims and few more. Thread-safe.
 */
final class JdbcIdempotency implements AxIdempotency {

    private static final int PURGE_EVERY = 256;
    private static final int PURGE_BATCH = 100;

    private final JdbcTemplate jdbc;
    private final String insert;
    private final String takeOver;
    private final String expired;
    private final String deleteExpiredPrefix;
    private final AtomicInteger sincePurge = new AtomicInteger();

    JdbcIdempotency(JdbcTemplate jdbc, String prefix, Dialect dialect) {
        this.jdbc = jdbc;
        String now = dialect.nowMicros();
        String table = prefix + "idempotency";
        insert = "INSERT INTO " + table + " (idem_key, expires_us) VALUES (?, " + now + " + ?)";
        takeOver = "UPDATE " + table + " SET expires_us = " + now + " + ? WHERE idem_key = ? AND expires_us <= " + now;
        expired = "SELECT idem_key FROM " + table + " WHERE expires_us <= " + now + " LIMIT ?";
        // the condition again: a key claimed anew since it was read stays
        deleteExpiredPrefix = "DELETE FROM " + table + " WHERE expires_us <= " + now + " AND idem_key IN (";
    }

    @Override
    public boolean claim(String key, Duration ttl) {
        AxIdempotency.check(key, ttl);
        long ttlMicros = Math.max(1, TimeUnit.NANOSECONDS.toMicros(ttl.toNanos()));
        boolean first;
        try {
            try {
                jdbc.update(insert, key, ttlMicros);
                first = true;
            } catch (DuplicateKeyException taken) {
                first = jdbc.update(takeOver, ttlMicros, key) == 1;
            }
        } catch (DataAccessException e) {
            throw new AxException("Cannot claim idempotency key '" + key + "' in the database: " + e.getMessage(), e);
        }
        if (sincePurge.incrementAndGet() >= PURGE_EVERY) {
            sincePurge.set(0);
            purgeExpired();
        }
        return first;
    }

    /** Deletes up to a batch of expired claims; a failure waits for the next purge. */
    int purgeExpired() {
        try {
            List<String> keys = jdbc.queryForList(expired, String.class, PURGE_BATCH);
            if (keys.isEmpty()) {
                return 0;
            }
            String marks = String.join(", ", java.util.Collections.nCopies(keys.size(), "?"));
            return jdbc.update(deleteExpiredPrefix + marks + ")", keys.toArray());
        } catch (DataAccessException e) {
            return 0;
        }
    }
}
