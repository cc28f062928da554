package io.ax.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.cluster.WakeUps;
import io.ax.test.redis.TestRedis;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Pub/sub on the machine's Redis carries a wake-up from one node to the others under one prefix. */
class RedisWakeUpsTest {

    private LettuceConnectionFactory factory;
    private String prefix;
    private RedisLink link;

    @BeforeEach
    void connect() {
        factory = TestRedis.shared();
        prefix = TestRedis.randomPrefix("redis");
        link = new RedisLink(factory, prefix, Duration.ofSeconds(1), InstantSource.system());
    }

    @AfterEach
    void cleanUp() {
        link.close();
        TestRedis.deleteKeys(factory, prefix);
        factory.destroy();
    }

    @Test
    void aSignalSentByOneNodeReachesTheListeners() {
        RedisWakeUps sender = new RedisWakeUps(link, factory, WakeUps.none());
        RedisWakeUps receiver = new RedisWakeUps(link, factory, WakeUps.none());
        List<String> heard = new CopyOnWriteArrayList<>();
        try {
            receiver.listen(heard::add);
            // the subscription may not be in place when the first signal goes: send until one arrives
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        sender.signal(List.of("n2", WakeUps.LEADER));
                        return heard.contains("n2") && heard.contains(WakeUps.LEADER);
                    });
        } finally {
            receiver.close();
            sender.close();
        }
    }

    @Test
    void signalsUnderAnotherPrefixAreNotHeard() {
        RedisLink otherLink =
                new RedisLink(factory, TestRedis.randomPrefix("redis"), Duration.ofSeconds(1), InstantSource.system());
        RedisWakeUps other = new RedisWakeUps(otherLink, factory, WakeUps.none());
        RedisWakeUps mine = new RedisWakeUps(link, factory, WakeUps.none());
        List<String> heard = new CopyOnWriteArrayList<>();
        try {
            mine.listen(heard::add);
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        mine.signal(List.of("ready"));
                        return heard.contains("ready");
                    });
            other.signal(List.of("n9"));
            mine.signal(List.of("marker"));
            await().atMost(Duration.ofSeconds(10)).until(() -> heard.contains("marker"));
            assertThat(heard).doesNotContain("n9");
        } finally {
            mine.close();
            other.close();
            otherLink.close();
        }
    }
}
