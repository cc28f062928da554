package io.ax.redis;

import io.ax.core.AxLock;
import io.ax.core.AxLocks;
import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.LongSupplier;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Locks on Redis: taken with {@code SET key token NX PX ttl}, renewed every renew period by a compare-and-extend
 * script, released by a compare-and-delete script, so a lock is only ever extended or deleted with its holder's
 * token. Renewals run on {@code ax-lock-renew} threads; a watch ({@code ax-lock-watch}, which never talks to Redis)
 * declares a lock lost when its lease ran out without a renewal, even while a renewal is stuck on an unanswering
 * Redis. A renewal that fails or finds another token declares it lost at once. While Redis is down, no lock is
 * given: a lock cannot fall back to another store and stay one lock. Nor on a primary new to this node ({@link
 * LockEras}) for a ttl: a failover to a replica that missed a lock, or a restart that lost it, gives it to nobody
 * before its holder was told. Thread-safe.
 */
final class RedisLocks implements AxLocks, AutoCloseable {

    private static final System.Logger LOG = Loggers.get(RedisLocks.class.getName());
    private static final int RENEW_THREADS = 2;

    /**
     * KEYS: the lock. ARGV: token, ttl in ms, the primaries locks may be taken on (comma-separated replication ids).
     * Takes the lock only on one of them: returns {1} when taken, {0} when held by another; {2, replication id,
     * replication id 2, uptime in seconds} when the primary is not one of them.
     */
    static final RedisScript<List> ACQUIRE = RedisScript.of(
            Replication.REPLID
                    + "if not string.find(',' .. ARGV[3] .. ',', ',' .. replid .. ',', 1, true) then"
                    + " local replid2 = string.match(info, 'master_replid2:(%w+)') or ''"
                    + " local up = string.match(redis.call('INFO', 'server'), 'uptime_in_seconds:(%d+)') or '0'"
                    + " return {2, replid, replid2, up} end"
                    + " if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {1} end return {0}",
            List.class);

    static final RedisScript<Long> EXTEND = RedisScript.of(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0"
                    + " end",
            Long.class);
    static final RedisScript<Long> DELETE = RedisScript.of(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
            Long.class);

    private final RedisLink link;
    private final Duration ttl;
    private final Duration renew;
    private final LongSupplier nanoTime;
    private final LockEras eras;
    private final ScheduledThreadPoolExecutor renewals;
    private final ScheduledThreadPoolExecutor watch;

    /**
     * @param ttl the lease of each lock in Redis, renewed while held
     * @param renew how often it is renewed; below the ttl
     * @param nanoTime the monotonic clock the lease is counted on here
     */
    RedisLocks(RedisLink link, Duration ttl, Duration renew, LongSupplier nanoTime) {
        if (renew.compareTo(ttl) >= 0 || renew.isZero() || renew.isNegative()) {
            throw new IllegalArgumentException(
                    "ax.redis.lock.renew (" + renew + ") must be positive and below ax.redis.lock.ttl (" + ttl + ")");
        }
        this.link = link;
        this.ttl = ttl;
        this.renew = renew;
        this.nanoTime = nanoTime;
        this.eras = new LockEras(ttl, nanoTime);
        this.renewals = new ScheduledThreadPoolExecutor(RENEW_THREADS, RedisLink.daemon("ax-lock-renew"));
        this.renewals.setRemoveOnCancelPolicy(true);
        this.watch = new ScheduledThreadPoolExecutor(1, RedisLink.daemon("ax-lock-watch"));
        this.watch.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Optional<AxLock> tryAcquire(String name, Runnable onLost) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a lock name must not be blank");
        }
        Objects.requireNonNull(onLost, "onLost");
        if (!link.isUp()) {
            return Optional.empty();
        }
        String key = link.key("lock:" + name);
        String token = UUID.randomUUID().toString();
        long before = nanoTime.getAsLong();
        boolean taken = false;
        try {
            for (int round = 0; round < 2; round++) { // a second time when the primary was found usable at once
                String usable = eras.usable();
                List<?> reply =
                        link.call(r -> r.execute(ACQUIRE, List.of(key), token, Long.toString(ttl.toMillis()), usable));
                long code = number(reply, 0);
                if (code != 2) {
                    taken = code == 1;
                    break;
                }
                Duration wait = eras.seen(String.valueOf(reply.get(1)), String.valueOf(reply.get(2)), number(reply, 3));
                if (!wait.isZero()) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "Lock {0} not taken: Redis did not answer: {1}", name, e.toString());
            return Optional.empty();
        }
        if (!taken) {
            return Optional.empty();
        }
        RedisLock lock = new RedisLock(this, name, key, token, onLost, before + ttl.toNanos());
        lock.start();
        return Optional.of(lock);
    }

    RedisLink link() {
        return link;
    }

    Duration ttl() {
        return ttl;
    }

    Duration renew() {
        return renew;
    }

    long nanoTime() {
        return nanoTime.getAsLong();
    }

    ScheduledThreadPoolExecutor renewals() {
        return renewals;
    }

    ScheduledThreadPoolExecutor watch() {
        return watch;
    }

    private static long number(List<?> reply, int i) {
        Object v = reply.get(i);
        return v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v));
    }

    /** Stops renewing every lock; held ones expire in Redis after their ttl. */
    @Override
    public void close() {
        renewals.shutdownNow();
        watch.shutdownNow();
    }
}
