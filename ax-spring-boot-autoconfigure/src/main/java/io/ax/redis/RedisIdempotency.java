package io.ax.redis;

import io.ax.core.AxIdempotency;
import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * Idempotency keys on Redis ({@code SET key 1 NX PX ttl}), and in the fallback (the database's table, or this JVM)
 * while Redis is down. A key claimed on Redis before an outage is not known to the fallback, so a repeat during the
 * outage may be taken for a first: an outage weakens the guarantee for keys claimed just before it. Thread-safe.
 */
final class RedisIdempotency implements AxIdempotency {

    private static final System.Logger LOG = System.getLogger(RedisIdempotency.class.getName());

    private final RedisLink link;
    private final AxIdempotency fallback;

    RedisIdempotency(RedisLink link, AxIdempotency fallback) {
        this.link = link;
        this.fallback = fallback;
    }

    @Override
    public boolean claim(String key, Duration ttl) {
        AxIdempotency.check(key, ttl);
        if (link.isUp()) {
            try {
                return Boolean.TRUE.equals(
                        link.call(r -> r.opsForValue().setIfAbsent(link.key("idem:" + key), "1", ttl)));
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "Idempotency key {0} goes to the fallback: {1}", key, e.toString());
            }
        }
        return fallback.claim(key, ttl);
    }
}
