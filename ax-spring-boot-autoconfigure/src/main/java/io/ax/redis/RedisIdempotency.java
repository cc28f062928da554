package io.ax.redis;

import io.ax.core.AxException;
import io.ax.core.AxIdempotency;
import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Idempotency keys on Redis ({@code SET key 1 NX PX ttl}), and in the fallback (the database's table, or this JVM)
 * while Redis is down. A repeat that Redis knows is refused by Redis alone. A first claim on a Redis primary that has
 * a replica, or had one lately, is decided by the fallback too: Redis replicates after it answers, so a failover to a
 * replica that missed the claim would forget it, and the database, which does not forget, keeps the key from being
 * accepted twice. On a Redis without replicas the claim on Redis is enough. A key claimed on Redis before an outage is
 * not known to the fallback, so a repeat during the outage may be taken for a first. Thread-safe.
 */
final class RedisIdempotency implements AxIdempotency {

    private static final System.Logger LOG = Loggers.get(RedisIdempotency.class.getName());

    /**
     * KEYS: the key. ARGV: a token, the ttl in ms. Returns 0 when the key is held already, 1 when this claim set it on
     * a primary without replicas, 2 when it set it on one that has or had a replica lately.
     */
    private static final RedisScript<Long> CLAIM = RedisScript.of(
            "if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end "
                    + Replication.REPLID
                    + Replication.REPLICATED
                    + "if replicated then return 2 end return 1",
            Long.class);

    /** KEYS: the key. ARGV: the token it must still hold to be deleted. */
    private static final RedisScript<Long> UNCLAIM = RedisScript.of(
            "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", Long.class);

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
            String redisKey = link.key("idem:" + key);
            String token = UUID.randomUUID().toString();
            Long outcome = null;
            try {
                outcome = link.call(
                        r -> r.execute(CLAIM, List.of(redisKey), token, Long.toString(Math.max(1, ttl.toMillis()))));
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "Idempotency key {0} goes to the fallback: {1}", key, e.toString());
            }
            if (outcome != null && outcome != 2) {
                return outcome == 1;
            }
            if (outcome != null) {
                return decidedByFallback(key, ttl, redisKey, token);
            }
        }
        return fallback.claim(key, ttl);
    }

    /** A first claim on a replicated Redis: the fallback decides; when it cannot, the claim on Redis is taken back. */
    private boolean decidedByFallback(String key, Duration ttl, String redisKey, String token) {
        try {
            return fallback.claim(key, ttl);
        } catch (RuntimeException e) {
            try {
                link.call(r -> r.execute(UNCLAIM, List.of(redisKey), token));
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed); // the key stays on Redis until its ttl: its repeats are refused
            }
            throw e instanceof AxException ax
                    ? ax
                    : new AxException("Cannot claim idempotency key '" + key + "': " + e.getMessage(), e);
        }
    }
}
