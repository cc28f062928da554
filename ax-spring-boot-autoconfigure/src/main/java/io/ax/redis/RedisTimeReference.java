package io.ax.redis;

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
        if (link.isUp() || fallback == null) {
            try {
                Long micros = link.call(r -> r.execute(c -> c.serverCommands().time(TimeUnit.MICROSECONDS), true));
                if (micros == null) {
                    throw new IllegalStateException("Redis returned no TIME");
                }
                lastSource = "redis";
                return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
            } catch (RuntimeException e) {
                if (fallback == null) {
                    throw e;
                }
            }
        }
        Instant t = fallback.read();
        lastSource = fallback.name();
        return t;
    }

    /** The clock the last reading came from. */
    @Override
    public String name() {
        return lastSource;
    }
}
