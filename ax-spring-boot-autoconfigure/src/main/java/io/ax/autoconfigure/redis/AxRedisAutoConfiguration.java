package io.ax.autoconfigure.redis;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.AxProperties;
import io.ax.autoconfigure.InvalidAxSettingsException;
import io.ax.autoconfigure.StoreDefaults;
import io.ax.autoconfigure.health.AxHealthDetail;
import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import io.ax.core.AxIdempotency;
import io.ax.core.AxLocks;
import io.ax.core.clock.AxClock;
import io.ax.core.clock.TimeReference;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.EpochFence;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.WakeUps;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.Permits;
import io.ax.redis.AxRedis;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Puts AX's locks, idempotency keys, wake-ups and cluster clock on Redis when the application has a {@link
 * RedisConnectionFactory} and {@code ax.redis.enabled} is not false; each falls back to the database path while Redis
 * does not answer (locks are refused instead). Without Redis, {@link AxAutoConfiguration} keeps them on the store.
 */
@AutoConfiguration(
        before = AxAutoConfiguration.class,
        after = AxJdbcAutoConfiguration.class,
        afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(RedisConnectionFactory.class)
@ConditionalOnBean(RedisConnectionFactory.class)
@ConditionalOnBooleanProperty(
        name = {"ax.enabled", "ax.redis.enabled"},
        matchIfMissing = true)
@EnableConfigurationProperties(AxRedisProperties.class)
public final class AxRedisAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    AxRedis axRedis(RedisConnectionFactory factory, AxRedisProperties properties) {
        try {
            return new AxRedis(factory, properties.getKeyPrefix(), properties.getRetry());
        } catch (IllegalArgumentException e) {
            throw invalid(e);
        }
    }

    private static InvalidAxSettingsException invalid(IllegalArgumentException e) {
        return new InvalidAxSettingsException(
                "ax.redis",
                e.getMessage(),
                "Give ax.redis.retry and ax.redis.lock.ttl positive durations, ax.redis.lock.renew one below the ttl,"
                        + " and ax.redis.key-prefix a non-empty prefix.",
                e);
    }

    @Bean
    @ConditionalOnMissingBean
    AxLocks axLocks(AxRedis redis, AxRedisProperties properties) {
        try {
            return redis.locks(
                    properties.getLock().getTtl(), properties.getLock().getRenew());
        } catch (IllegalArgumentException e) {
            throw invalid(e);
        }
    }

    @Bean
    @ConditionalOnMissingBean
    AxIdempotency axIdempotency(AxRedis redis, InstanceStore store, AxClock clock) {
        return redis.idempotency(StoreDefaults.idempotency(store, clock));
    }

    /** Closed by the engine that listens on it. */
    @Bean(destroyMethod = "")
    @ConditionalOnMissingBean
    WakeUps axWakeUps(AxRedis redis, InstanceStore store) {
        return redis.wakeUps(StoreDefaults.wakeUps(store));
    }

    @Bean
    @ConditionalOnMissingBean
    TimeReference axTimeReference(AxRedis redis, InstanceStore store) {
        return redis.timeReference(StoreDefaults.timeReference(store));
    }

    /** {@code ax.redis.permits=true}: the permits of cluster-wide limits on Redis, held by the store's rule. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty("ax.redis.permits")
    Permits axPermits(AxRedis redis, InstanceStore store, AxProperties properties) {
        if (store instanceof ClusterStore shared && shared.permits().isPresent()) {
            AxProperties.Cluster cluster = properties.getCluster();
            return redis.permits(
                    store, shared.permits().get(), cluster.getLease().plus(cluster.getHeartbeat()));
        }
        throw new InvalidAxSettingsException(
                "ax.redis",
                "ax.redis.permits=true keeps the permits on Redis, held while the store has their attempts RUNNING,"
                        + " and this application keeps AX in "
                        + store.getClass().getSimpleName()
                        + ", which keeps no permits",
                "Give the application a DataSource (AX then keeps its instances in the database), or remove"
                        + " ax.redis.permits.",
                null);
    }

    /** {@code ax.cluster.lease-store=redis}: the lease on Redis, its epochs recorded in the database's leader row. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(name = "ax.cluster.lease-store", havingValue = "redis")
    LeaderLease axLeaderLease(AxRedis redis, InstanceStore store) {
        if (store instanceof ClusterStore shared && shared.leaderLease() instanceof EpochFence fence) {
            return redis.leaderLease(fence);
        }
        throw new InvalidAxSettingsException(
                "ax.cluster",
                "ax.cluster.lease-store=redis needs the JDBC store (a DataSource), whose leader row records the"
                        + " epochs that fence the leader's writes; this application keeps AX in "
                        + store.getClass().getSimpleName(),
                "Give the application a DataSource (AX then keeps its instances in the database), or remove"
                        + " ax.cluster.lease-store.",
                null);
    }

    /** The nodes stay registered in the store, beside the lease that the store's writes are fenced by. */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(name = "ax.cluster.lease-store", havingValue = "redis")
    NodeRegistry axNodeRegistry(InstanceStore store) {
        return ((ClusterStore) store).nodeRegistry();
    }

    @Bean
    AxHealthDetail axRedisHealthDetail(AxRedis redis) {
        return new AxHealthDetail() {
            @Override
            public String name() {
                return "redis";
            }

            @Override
            public Object value() {
                AxRedis.Status s = redis.status();
                Map<String, Object> detail = new LinkedHashMap<>();
                detail.put("status", s.up() ? "UP" : "DOWN (the database stands in)");
                if (!s.up()) {
                    detail.put("downSince", s.downSince());
                    detail.put("cause", s.cause());
                }
                detail.put("outages", s.outages());
                return detail;
            }
        };
    }
}
