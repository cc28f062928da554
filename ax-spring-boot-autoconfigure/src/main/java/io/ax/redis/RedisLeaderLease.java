package io.ax.redis;

import io.ax.core.cluster.EpochFence;
import io.ax.core.cluster.EpochMirroringLease;
import io.ax.core.cluster.LeaderInfo;
import io.ax.core.cluster.Lease;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The leader lease on Redis: one hash ({@code <prefix>leader}: holder, epoch, expiry in microseconds of Redis
 * {@code TIME}), changed only by scripts that read Redis's clock inside themselves, so no node's clock decides. A
 * takeover increments the epoch, from at least the store's highest ({@link EpochFence}), and records it in the store
 * before the lease is returned: the leader's writes to the database stay fenced by the database, and a leader
 * elected through Redis cannot write with a stale epoch. A holder whose epoch the store has passed (its writes were
 * refused, so it stepped down) takes a new one at its next acquire instead of extending the stale one. The hash has no ttl: the epoch must never go back. Every
 * method throws when Redis (or, for a takeover, the database) does not answer; while Redis is down no node leads.
 * Thread-safe.
 */
final class RedisLeaderLease implements EpochMirroringLease {

    private static final String NOW =
            "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000000 + tonumber(t[2])"
                    + " local h = redis.call('HMGET', KEYS[1], 'holder', 'epoch', 'expires')"
                    + " local holder = h[1] local epoch = tonumber(h[2] or '0') local expires = tonumber(h[3] or '0') ";

    /** ARGV: node, lease in µs, the store's epoch. Returns granted (0/1), epoch, µs left, whether a takeover. */
    private static final RedisScript<List> ACQUIRE = RedisScript.of(
            NOW + "local d = tonumber(ARGV[2]) local floor = tonumber(ARGV[3])"
                    + " if holder and expires > now then"
                    + "   if holder ~= ARGV[1] then return {0, epoch, expires - now, 0} end"
                    + "   if floor <= epoch then"
                    + "     redis.call('HSET', KEYS[1], 'expires', string.format('%d', now + d))"
                    + "     return {1, epoch, d, 0}"
                    + "   end" // the database saw a later epoch: this one is stale, and the holder takes a new one
                    + " end"
                    + " if floor > epoch then epoch = floor end"
                    + " epoch = epoch + 1"
                    + " redis.call('HSET', KEYS[1], 'holder', ARGV[1], 'epoch', string.format('%d', epoch),"
                    + "   'expires', string.format('%d', now + d))"
                    + " return {1, epoch, d, 1}",
            List.class);

    /** ARGV: holder, epoch, lease in µs. Returns 1 when extended. */
    private static final RedisScript<Long> RENEW = RedisScript.of(
            NOW + "if holder == ARGV[1] and epoch == tonumber(ARGV[2]) and expires > now then"
                    + " redis.call('HSET', KEYS[1], 'expires', string.format('%d', now + tonumber(ARGV[3])))"
                    + " return 1 end return 0",
            Long.class);

    /** ARGV: holder, epoch. Expired as of now, so the next acquire anywhere takes it at once. */
    private static final RedisScript<Long> RELEASE = RedisScript.of(
            NOW + "if holder == ARGV[1] and epoch == tonumber(ARGV[2]) and expires > now then"
                    + " redis.call('HSET', KEYS[1], 'expires', string.format('%d', now - 1))"
                    + " return 1 end return 0",
            Long.class);

    /** Returns holder ('' when never taken), epoch, expiry, now. */
    private static final RedisScript<List> CURRENT =
            RedisScript.of(NOW + "return {holder or '', epoch, expires, now}", List.class);

    private final RedisLink link;
    private final EpochFence fence;
    private final String key;

    RedisLeaderLease(RedisLink link, EpochFence fence) {
        this.link = link;
        this.fence = Objects.requireNonNull(fence, "fence");
        this.key = link.key("leader");
    }

    @Override
    public EpochFence fence() {
        return fence;
    }

    @Override
    public Optional<Lease> acquire(String node, Duration duration) {
        Objects.requireNonNull(node, "node");
        long us = micros(duration);
        long floor = fence.highestEpoch();
        List<?> r =
                link.call(redis -> redis.execute(ACQUIRE, List.of(key), node, Long.toString(us), Long.toString(floor)));
        if (number(r, 0) != 1) {
            return Optional.empty();
        }
        Lease lease = new Lease(node, number(r, 1), Duration.of(number(r, 2), ChronoUnit.MICROS));
        if (number(r, 3) == 1) {
            // a takeover: the database learns the epoch before anyone acts on it, or it was not won
            boolean recorded;
            try {
                recorded = fence.advance(node, lease.epoch());
            } catch (RuntimeException e) {
                release(lease);
                throw e;
            }
            if (!recorded) {
                release(lease);
                return Optional.empty();
            }
        }
        return Optional.of(lease);
    }

    @Override
    public Optional<Lease> renew(Lease lease, Duration duration) {
        Objects.requireNonNull(lease, "lease");
        long us = micros(duration);
        Long renewed = link.call(redis ->
                redis.execute(RENEW, List.of(key), lease.holder(), Long.toString(lease.epoch()), Long.toString(us)));
        return renewed != null && renewed == 1L
                ? Optional.of(new Lease(lease.holder(), lease.epoch(), duration))
                : Optional.empty();
    }

    @Override
    public void release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        link.call(redis -> redis.execute(RELEASE, List.of(key), lease.holder(), Long.toString(lease.epoch())));
    }

    @Override
    public LeaderInfo current() {
        List<?> r = link.call(redis -> redis.execute(CURRENT, List.of(key)));
        String holder = String.valueOf(r.get(0));
        long expires = number(r, 2);
        return new LeaderInfo(
                holder.isEmpty() ? null : holder,
                number(r, 1),
                Instant.EPOCH.plus(expires, ChronoUnit.MICROS),
                Duration.of(expires - number(r, 3), ChronoUnit.MICROS));
    }

    private static long number(List<?> reply, int i) {
        Object v = reply.get(i);
        return v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v));
    }

    private static long micros(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("a lease lasts a positive duration, was " + duration);
        }
        return TimeUnit.MICROSECONDS.convert(duration);
    }
}
