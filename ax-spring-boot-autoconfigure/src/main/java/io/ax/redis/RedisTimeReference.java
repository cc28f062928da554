package io.ax.redis;

import io.ax.core.clock.AxClock;
import io.ax.core.clock.TimeReference;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;

/** Redis {@code TIME} as the cluster's clock, and the fallback's (the database's) while Redis is down. */
final class RedisTimeReference implements TimeReference {

    private final RedisLink link;
    private final TimeReference fallback; // null: none
    private volatile String lastSource = "redis";

    RedisTimeReference(RedisLink link, TimeReference fallback) {
        this.link = link;
        this.fallback = fallback;
    }

    @Override
    public Instant read() {
        return read(AxClock.system()).remote();
    }

    /** {@inheritDoc} Redis's reading brackets the call; the fallback's brackets what the fallback brackets. */
    @Override
    public Reading read(AxClock local) {
        if (link.isUp() || fallback == null) {
            try {
                long before = local.nanoTime();
                Instant localBefore = local.instant();
                Instant remote = redisTime();
                Reading reading = new Reading(localBefore, local.nanoTime() - before, remote);
                lastSource = "redis";
                return reading;
            } catch (RuntimeException e) {
                if (fallback == null) {
                    throw e;
                }
            }
        }
        Reading reading = fallback.read(local);
        lastSource = fallback.name();
        return reading;
    }

    private Instant redisTime() {
        Long micros = link.call(r -> r.execute(c -> c.serverCommands().time(TimeUnit.MICROSECONDS), true));
        if (micros == null) {
            throw new IllegalStateException("Redis returned no TIME");
        }
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }

    /** The clock the last reading came from. */
    @Override
    public String name() {
        return lastSource;
    }
}
