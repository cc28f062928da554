package io.ax.autoconfigure.redis;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of AX's use of Redis, under {@code ax.redis.*}: used when the application has a RedisConnectionFactory. */
@ConfigurationProperties("ax.redis")
public class AxRedisProperties {

    /**
     * Whether AX uses the application's Redis (locks, idempotency keys, wake-ups, the cluster clock); false keeps
     * every one of them on the database.
     */
    private boolean enabled = true;

    /** The prefix of every key and pub/sub channel AX writes. */
    private String keyPrefix = "ax:";

    /**
     * While Redis does not answer, how often AX tries it again; meanwhile it uses the database. Keep
     * spring.data.redis.timeout short (a second or two): a call to a Redis that does not answer waits that long
     * before AX notices.
     */
    private Duration retry = Duration.ofSeconds(3);

    /**
     * Whether the permits of cluster-wide limits (cluster-limit, maxConcurrent, mutex, rate) are kept on Redis rather
     * than in the database: a limited claim then takes its permits in Redis and only its change to RUNNING in the
     * database. While Redis does not answer, limited work waits, and after it restarted empty or failed over it waits
     * a quarantine of the cluster's lease plus heartbeat while the nodes put back what they hold.
     */
    private boolean permits;

    /** Locks (the AxLocks bean). */
    private final Lock lock = new Lock();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public Duration getRetry() {
        return retry;
    }

    public void setRetry(Duration retry) {
        this.retry = retry;
    }

    public boolean isPermits() {
        return permits;
    }

    public void setPermits(boolean permits) {
        this.permits = permits;
    }

    public Lock getLock() {
        return lock;
    }

    /** Locks with lease renewal. */
    public static class Lock {

        /**
         * The lease of a lock in Redis: how long it outlives a holder that stops renewing it. After a failover or a
         * restart of the Redis primary, no lock is given on it for this long, so that a holder it forgot is told
         * first.
         */
        private Duration ttl = Duration.ofSeconds(10);

        /** How often a held lock is renewed; below the ttl. */
        private Duration renew = Duration.ofSeconds(3);

        public Duration getTtl() {
            return ttl;
        }

        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        public Duration getRenew() {
            return renew;
        }

        public void setRenew(Duration renew) {
            this.renew = renew;
        }
    }
}
