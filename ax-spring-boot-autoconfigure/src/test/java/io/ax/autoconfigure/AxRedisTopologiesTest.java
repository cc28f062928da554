package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.redis.AxRedisAutoConfiguration;
import io.ax.core.AxIdempotency;
import io.ax.core.AxLock;
import io.ax.core.AxLocks;
import io.ax.core.engine.AxEngine;
import io.ax.redis.AxRedis;
import io.ax.test.redis.RedisClusterSet;
import io.ax.test.redis.RedisSentinelSet;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * AX on the Redis that Spring Boot's own settings describe: a Sentinel set ({@code spring.data.redis.sentinel.*}) and a
 * Redis Cluster ({@code spring.data.redis.cluster.nodes}), real ones, as a user configures them.
 */
class AxRedisTopologiesTest {

    private final String prefix = TestRedis.randomPrefix("topology");

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataRedisAutoConfiguration.class, AxRedisAutoConfiguration.class, AxAutoConfiguration.class))
                .withPropertyValues(
                        "spring.data.redis.timeout=1s",
                        "spring.data.redis.connect-timeout=1s",
                        "ax.redis.key-prefix=" + prefix,
                        "ax.redis.lock.ttl=1s",
                        "ax.redis.lock.renew=300ms");
    }

    @Test
    void findsThePrimaryThroughTheSentinels() {
        try (RedisSentinelSet set = RedisSentinelSet.start(Duration.ofSeconds(1))) {
            runner().withPropertyValues(
                            "spring.data.redis.sentinel.master=" + RedisSentinelSet.MASTER,
                            "spring.data.redis.sentinel.nodes=" + set.sentinelNodes())
                    .run(this::usesRedis);
        }
    }

    @Test
    void spreadsOverTheClusterNodes() {
        try (RedisClusterSet cluster = RedisClusterSet.start()) {
            runner().withPropertyValues("spring.data.redis.cluster.nodes=" + cluster.nodes())
                    .run(this::usesRedis);
        }
    }

    private void usesRedis(AssertableApplicationContext context) {
        assertThat(context).hasNotFailed();
        // a Redis that started a moment ago gives locks a ttl later
        AxLock lock = await().atMost(Duration.ofSeconds(5))
                .until(() -> context.getBean(AxLocks.class).tryAcquire("nightly"), Optional::isPresent)
                .orElseThrow();
        assertThat(context.getBean(AxLocks.class).tryAcquire("nightly")).isEmpty();
        lock.close();
        AxIdempotency keys = context.getBean(AxIdempotency.class);
        assertThat(keys.claim("order-9", Duration.ofMinutes(1))).isTrue();
        assertThat(keys.claim("order-9", Duration.ofMinutes(1))).isFalse();
        assertThat(context.getBean(AxEngine.class).status().clusterTime())
                .hasValueSatisfying(t -> assertThat(t.source()).isEqualTo("redis"));
        assertThat(context.getBean(AxRedis.class).status().up()).isTrue();
    }
}
