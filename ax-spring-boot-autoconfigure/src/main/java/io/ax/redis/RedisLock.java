package io.ax.redis;

import io.ax.core.AxLock;
import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One held lock of {@link RedisLocks}. Its lease is counted here from just before each command that set or extended
 * it, so it ends here no later than in Redis; the watch declares it lost at that moment unless a renewal moved it.
 */
final class RedisLock implements AxLock {

    private static final System.Logger LOG = Loggers.get(RedisLock.class.getName());

    private final RedisLocks locks;
    private final String name;
    private final String key;
    private final String token;
    private final Runnable onLost;
    private final AtomicBoolean lost = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    private volatile long leaseEndNanos;
    private volatile ScheduledFuture<?> renewal;
    private volatile ScheduledFuture<?> expiry;

    RedisLock(RedisLocks locks, String name, String key, String token, Runnable onLost, long leaseEndNanos) {
        this.locks = locks;
        this.name = name;
        this.key = key;
        this.token = token;
        this.onLost = onLost;
        this.leaseEndNanos = leaseEndNanos;
    }

    void start() {
        long every = locks.renew().toNanos();
        try {
            renewal = locks.renewals().scheduleWithFixedDelay(this::renew, every, every, TimeUnit.NANOSECONDS);
            watchUntil(leaseEndNanos);
        } catch (RejectedExecutionException stopped) {
            lose("AX's locks are stopping");
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String token() {
        return token;
    }

    @Override
    public boolean isLost() {
        if (!lost.get() && !closed.get() && locks.nanoTime() - leaseEndNanos >= 0) {
            lose("its lease ran out before a renewal came through");
        }
        return lost.get();
    }

    private void renew() {
        if (lost.get() || closed.get()) {
            return;
        }
        long before = locks.nanoTime();
        Long extended;
        try {
            extended = locks.link()
                    .call(r -> r.execute(
                            RedisLocks.EXTEND,
                            List.of(key),
                            token,
                            Long.toString(locks.ttl().toMillis())));
        } catch (RuntimeException e) {
            lose("its renewal failed: " + e);
            return;
        }
        if (extended == null || extended != 1L) {
            lose("Redis holds another token, or none, for it");
            return;
        }
        if (lost.get()) {
            return; // the watch declared it lost while the renewal was on its way: the holder was told, it stays so
        }
        leaseEndNanos = before + locks.ttl().toNanos();
        watchUntil(leaseEndNanos);
    }

    private void watchUntil(long endNanos) {
        ScheduledFuture<?> previous = expiry;
        expiry = locks.watch().schedule(this::isLost, endNanos - locks.nanoTime(), TimeUnit.NANOSECONDS);
        if (previous != null) {
            previous.cancel(false);
        }
    }

    private void lose(String why) {
        if (closed.get() || !lost.compareAndSet(false, true)) {
            return;
        }
        cancelTimers();
        LOG.log(Level.WARNING, "AX lock {0} is lost: {1}", name, why);
        try {
            onLost.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The loss callback of lock {0} failed: {1}", name, e.toString());
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        cancelTimers();
        if (!locks.link().isUp()) {
            return; // it expires in Redis by itself
        }
        try {
            // only with this token: a lock lost and taken by another stays the other's
            locks.link().call(r -> r.execute(RedisLocks.DELETE, List.of(key), token));
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "Lock {0} not released (it expires by itself): {1}", name, e.toString());
        }
    }

    private void cancelTimers() {
        ScheduledFuture<?> r = renewal;
        if (r != null) {
            r.cancel(false);
        }
        ScheduledFuture<?> e = expiry;
        if (e != null) {
            e.cancel(false);
        }
    }

    @Override
    public String toString() {
        return "RedisLock[" + name + (lost.get() ? ", lost" : "") + (closed.get() ? ", closed" : "") + "]";
    }
}
