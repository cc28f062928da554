package io.ax.test.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxIdempotency;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link AxIdempotency} promises: the first caller of a key wins, every other caller loses until the claim
 * expires, also when many race. Each store's test extends it in a few lines.
 */
public abstract class IdempotencyContract {

    /** The keys under test; each test uses keys of its own. */
    protected abstract AxIdempotency idempotency();

    /** Lets {@code d} pass on the clock the claims expire on; real time passes by itself. */
    protected void passTime(Duration d) {}

    private static String key(String what) {
        return what + ":" + UUID.randomUUID();
    }

    @Test
    void theFirstCallerWinsAndTheSecondLoses() {
        String key = key("mail");
        assertThat(idempotency().claim(key, Duration.ofMinutes(5))).isTrue();
        assertThat(idempotency().claim(key, Duration.ofMinutes(5))).isFalse();
        assertThat(idempotency().claim(key("other"), Duration.ofMinutes(5))).isTrue();
    }

    @Test
    void oneOfManyRacingCallersWins() throws Exception {
        String key = key("race");
        int threads = 12;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> calls = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                calls.add(pool.submit(() -> {
                    go.await();
                    return idempotency().claim(key, Duration.ofMinutes(5));
                }));
            }
            go.countDown();
            int winners = 0;
            for (Future<Boolean> f : calls) {
                winners += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(winners).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anExpiredClaimGoesToTheNextCaller() {
        String key = key("expiring");
        Duration ttl = Duration.ofMillis(300);
        assertThat(idempotency().claim(key, ttl)).isTrue();
        assertThat(idempotency().claim(key, Duration.ofMillis(300))).isFalse();
        passTime(ttl.plusMillis(1));
        // the claim that finds it expired wins it, and holds it for its own ttl
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> idempotency().claim(key, Duration.ofMinutes(5)));
        assertThat(idempotency().claim(key, Duration.ofMinutes(5))).isFalse();
    }

    @Test
    void badKeysAndTtlsAreRefusedWithAMessage() {
        assertThatThrownBy(() -> idempotency().claim(" ", Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() ->
                        idempotency().claim("x".repeat(AxIdempotency.MAX_KEY_LENGTH + 1), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most");
        assertThatThrownBy(() -> idempotency().claim("k", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
    }
}
