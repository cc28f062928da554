package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.time.InstantSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** What marks Redis down: a failed call, not a call whose own thread gave up on it (a stop interrupts it). */
class RedisLinkTest {

    private LettuceConnectionFactory factory;
    private RedisLink link;

    @BeforeEach
    void connect() {
        factory = TestRedis.shared();
        link = new RedisLink(factory, TestRedis.randomPrefix("link"), Duration.ofMinutes(1), InstantSource.system());
    }

    @AfterEach
    void close() {
        Thread.interrupted(); // clear what a test left on this thread
        link.close();
        factory.destroy();
    }

    @Test
    void aFailedCallMarksRedisDownOnce() {
        assertThatThrownBy(() -> link.call(r -> {
                    throw new RedisSystemException("connection reset", new RuntimeException("reset"));
                }))
                .isInstanceOf(RedisSystemException.class);

        assertThat(link.isUp()).isFalse();
        assertThat(link.outages()).isEqualTo(1);
    }

    @Test
    void aCallInterruptedByAStopLeavesRedisUp() {
        assertThatThrownBy(() -> link.call(r -> {
                    throw new RedisSystemException("Redis command interrupted", new InterruptedException());
                }))
                .isInstanceOf(RedisSystemException.class);
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> link.call(r -> {
                    throw new IllegalStateException("gave up");
                }))
                .isInstanceOf(IllegalStateException.class);
        Thread.interrupted();

        assertThat(link.isUp()).isTrue();
        assertThat(link.outages()).isZero();
        Boolean found = link.call(r -> r.hasKey("nothing-here"));
        assertThat(found).isFalse();
    }
}
