package io.ax.redis;

import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * AX's one way to Redis, and its view of whether Redis answers. A call that fails marks Redis down: the parts then
 * take their database paths at once, without waiting on Redis again, and a probe ({@code PING} every retry period,
 * thread {@code ax-redis-probe}) marks it up when it answers. Going down and coming back are each logged once.
 * Thread-safe.
 */
final class RedisLink implements AutoCloseable {

    private static final System.Logger LOG = Loggers.get(RedisLink.class.getName());

    private final StringRedisTemplate redis;
    private final InstantSource wall;
    private final String keyPrefix;
    private final ScheduledThreadPoolExecutor probe;
    private final AtomicInteger outages = new AtomicInteger();

    private volatile Down down; // null while Redis answers

    /** Since when Redis does not answer, and why. */
    record Down(Instant since, String cause) {}

    RedisLink(RedisConnectionFactory factory, String keyPrefix, Duration retry, InstantSource wall) {
        this.wall = wall;
        this.redis = new StringRedisTemplate(factory);
        this.redis.afterPropertiesSet();
        this.keyPrefix = keyPrefix;
        this.probe = new ScheduledThreadPoolExecutor(1, daemon("ax-redis-probe"));
        long every = retry.toNanos();
        probe.scheduleWithFixedDelay(this::probeIfDown, every, every, TimeUnit.NANOSECONDS);
    }

    /** A key under AX's prefix. */
    String key(String name) {
        return keyPrefix + name;
    }

    boolean isUp() {
        return down == null;
    }

    /** Why Redis is taken for down; null while it answers. */
    Down down() {
        return down;
    }

    /** How many times Redis went down since the start. */
    int outages() {
        return outages.get();
    }

    /**
     * Runs one Redis operation; a failure marks Redis down and is thrown on.
     *
     * @throws RuntimeException what the operation threw
     */
    <T> T call(Function<StringRedisTemplate, T> operation) {
        try {
            return operation.apply(redis);
        } catch (RuntimeException e) {
            if (!interrupted(e)) {
                failed(e); // a call its own thread gave up on (a stop interrupts it) says nothing of Redis
            }
            throw e;
        }
    }

    private static boolean interrupted(RuntimeException e) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        int depth = 0;
        for (Throwable t = e; t != null && depth < 16; t = t.getCause(), depth++) {
            if (t instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    /** Marks Redis down after a failed call; logs once per outage. */
    void failed(RuntimeException cause) {
        synchronized (this) {
            if (down != null) {
                return;
            }
            down = new Down(wall.instant(), cause.toString());
        }
        outages.incrementAndGet();
        LOG.log(
                Level.WARNING,
                "Redis does not answer; AX uses the database for idempotency keys, wake-ups and the cluster clock"
                        + " (locks are refused, and limited work waits if its permits are on Redis) until it does: {0}",
                cause.toString());
    }

    private void probeIfDown() {
        if (down == null) {
            return;
        }
        try {
            redis.execute(c -> c.ping(), true);
        } catch (RuntimeException stillDown) {
            return;
        }
        Down was;
        synchronized (this) {
            was = down;
            down = null;
        }
        if (was != null) {
            LOG.log(Level.INFO, "Redis answers again (down since {0}); AX uses it again", was.since());
        }
    }

    @Override
    public void close() {
        probe.shutdownNow();
    }

    static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, n.getAndIncrement() == 0 ? name : name + "-" + n.get());
            t.setDaemon(true);
            return t;
        };
    }
}
