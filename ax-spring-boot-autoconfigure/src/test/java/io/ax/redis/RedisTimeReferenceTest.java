package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.clock.AxClock;
import io.ax.core.clock.ClusterTime;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Redis TIME, read as the cluster's clock: on this machine it agrees with the local clock to within a second. */
class RedisTimeReferenceTest {

    @Test
    void redisTimeGivesASmallOffsetWithItsUncertainty() {
        LettuceConnectionFactory factory = TestRedis.shared();
        try (RedisLink link = new RedisLink(
                factory, TestRedis.randomPrefix("redis"), Duration.ofSeconds(1), InstantSource.system())) {
            ClusterTime time =
                    new ClusterTime(AxClock.system(), new RedisTimeReference(link, null), Duration.ofSeconds(30));

            assertThat(time.measure()).isTrue();

            assertThat(time.status().source()).isEqualTo("redis");
            assertThat(time.status().offset().abs()).isLessThan(Duration.ofSeconds(1));
            assertThat(time.status().uncertainty()).isLessThan(Duration.ofSeconds(1));
        } finally {
            factory.destroy();
        }
    }
}
