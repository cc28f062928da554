package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxIdempotency;
import io.ax.test.redis.TestRedis;
import io.ax.test.store.IdempotencyContract;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The idempotency contract on the machine's Redis, with a fallback that must never be asked while Redis answers. */
class RedisIdempotencyTest extends IdempotencyContract {

    private LettuceConnectionFactory factory;
    private String prefix;
    private RedisLink link;
    private RedisIdempotency idempotency;

    @BeforeEach
    void connect() {
        factory = TestRedis.shared();
        prefix = TestRedis.randomPrefix("redis");
        link = new RedisLink(factory, prefix, Duration.ofSeconds(1), InstantSource.system());
        idempotency = new RedisIdempotency(link, (key, ttl) -> {
            throw new AssertionError("the fallback was asked while Redis answers");
        });
    }

    @AfterEach
    void cleanUp() {
        link.close();
        TestRedis.deleteKeys(factory, prefix);
        factory.destroy();
    }

    @Override
    protected AxIdempotency idempotency() {
        return idempotency;
    }

    @Test
    void aClaimIsAKeyUnderThePrefixThatExpires() {
        assertThat(idempotency.claim("refund:42", Duration.ofSeconds(30))).isTrue();
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        assertThat(redis.getExpire(prefix + "idem:refund:42", TimeUnit.MILLISECONDS))
                .isPositive()
                .isLessThanOrEqualTo(30_000);
    }
}
