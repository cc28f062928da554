package io.ax.redis;

import io.ax.core.AxIdempotency;
import io.ax.core.AxLocks;
import io.ax.core.clock.TimeReference;
import io.ax.core.cluster.EpochFence;
import io.ax.core.cluster.EpochMirroringLease;
import io.ax.core.cluster.WakeUps;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.Permits;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * What AX does with Redis when an application has it: locks with lease renewal, idempotency keys, wake-ups over
 * pub/sub and the cluster's clock, each with the database path it falls back to while Redis is down. Every key and
 * channel lies under one prefix; everything written expires except what is held and renewed. One instance per
 * application: it holds the view of whether Redis answers, which its parts share, and the probe thread that notices
 * when it answers again. Thread-safe.
 */
public final class AxRedis implements AutoCloseable {

    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_:.\\-]{1,64}");

    private final RedisConnectionFactory factory;
    private final RedisLink link;
    /** The permits made here, each with a thread of its own, closed with this. */
    private final List<RedisPermits> made = new CopyOnWriteArrayList<>();

    /**
     * @param factory the application's connection factory
     * @param keyPrefix the prefix of every key and channel, e.g. {@code ax:}: 1 to 64 letters, digits or {@code
     *     _:.-}
     * @param retry how often a Redis taken for down is probed; positive
     * @throws IllegalArgumentException naming the setting that is wrong
     */
    public AxRedis(RedisConnectionFactory factory, String keyPrefix, Duration retry) {
        this.factory = Objects.requireNonNull(factory, "factory");
        if (keyPrefix == null || !PREFIX.matcher(keyPrefix).matches()) {
            throw new IllegalArgumentException("ax.redis.key-prefix '" + keyPrefix
                    + "' must be 1 to 64 letters, digits or the characters _ : . -");
        }
        if (retry == null || retry.isZero() || retry.isNegative()) {
            throw new IllegalArgumentException("ax.redis.retry must be positive, was " + retry);
        }
        this.link = new RedisLink(factory, keyPrefix, retry, InstantSource.system());
    }

    /**
     * Locks renewed every {@code renew} for a lease of {@code ttl}; closing them (they are {@link AutoCloseable})
     * stops their threads.
     *
     * @throws IllegalArgumentException when the renew period is not below the ttl
     */
    public AxLocks locks(Duration ttl, Duration renew) {
        return new RedisLocks(link, ttl, renew, System::nanoTime);
    }

    /**
     * The leader lease on Redis, which records each epoch it grants in {@code fence} (the database's lease row) before
     * granting it, so the leader's database writes stay fenced. No fallback: while Redis is down no node leads.
     */
    public EpochMirroringLease leaderLease(EpochFence fence) {
        return new RedisLeaderLease(link, fence);
    }

    /**
     * Idempotency keys on Redis, in {@code fallback} while Redis is down. On a Redis with a replica, {@code fallback}
     * decides each first claim too, so that a failover that loses the claim on Redis cannot accept the key twice;
     * when it cannot decide, the claim is refused ({@link io.ax.core.AxException}) and taken back from Redis.
     */
    public AxIdempotency idempotency(AxIdempotency fallback) {
        return new RedisIdempotency(link, Objects.requireNonNull(fallback, "fallback"));
    }

    /** Wake-ups over Redis pub/sub, through {@code fallback} while Redis is down. */
    public WakeUps wakeUps(WakeUps fallback) {
        return new RedisWakeUps(link, factory, Objects.requireNonNull(fallback, "fallback"));
    }

    /** Redis {@code TIME}, and {@code fallback}'s clock while Redis is down; null for none. */
    public TimeReference timeReference(TimeReference fallback) {
        return new RedisTimeReference(link, fallback);
    }

    /**
     * Cluster-wide permits kept on Redis, held by the rule of {@code store}'s own ({@code inStore}): an attempt holds
     * one while the store has it RUNNING. No fallback: while Redis is down, limited claims wait. Closed with this.
     *
     * @param quarantine how long every claim waits after Redis started afresh (restarted empty, or failed over to a
     *     replica), while the nodes put
     *     back the permits they hold: the cluster's lease plus its heartbeat, so that a node paused up to its lease
     *     has done so
     */
    public Permits permits(InstanceStore store, Permits inStore, Duration quarantine) {
        RedisPermits permits = new RedisPermits(
                link, store, Objects.requireNonNull(inStore, "inStore")::noteWait, quarantine, () -> 0);
        made.add(permits);
        return permits;
    }

    /** Whether Redis answers, as AX last saw it. */
    public Status status() {
        RedisLink.Down down = link.down();
        return down == null
                ? new Status(true, null, null, link.outages())
                : new Status(false, down.since(), down.cause(), link.outages());
    }

    /**
     * Whether Redis answers, as AX last saw it.
     *
     * @param up whether it answers
     * @param downSince since when it does not; null while up
     * @param cause why it was taken for down; null while up
     * @param outages how many outages were seen since the start
     */
    public record Status(boolean up, Instant downSince, String cause, int outages) {}

    /**
     * Stops the probe and the permits' watch. The other parts made here are closed by their users (the engine closes
     * its wake-ups).
     */
    @Override
    public void close() {
        made.forEach(RedisPermits::close);
        link.close();
    }
}
