package io.ax.docs.failures;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.Backoff;
import io.ax.core.RetryPolicy;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The waits the failures guide lists are the ones AX computes. */
class RetryWaitsTest {

    @Test
    void importPricesWaitsDoubleFromThirtySecondsBelowItsMax() {
        RetryPolicy retry = new RetryPolicy(5, Backoff.EXPONENTIAL, Duration.ofSeconds(30), Duration.ofMinutes(10));

        assertThat(IntStream.rangeClosed(1, 5).mapToObj(retry::delayBeforeRetry))
                .containsExactly(
                        Duration.ofSeconds(30),
                        Duration.ofMinutes(1),
                        Duration.ofMinutes(2),
                        Duration.ofMinutes(4),
                        Duration.ofMinutes(8));
        assertThat(retry.allowsRetryAfter(5))
                .as("attempt 5 failed: a sixth follows")
                .isTrue();
        assertThat(retry.allowsRetryAfter(6)).as("attempt 6 failed: DEAD").isFalse();
    }

    @Test
    void theDefaultBeanWaitsFiveTenAndTwentySeconds() {
        RetryPolicy retry = new RetryDefaults().axRetryPolicy();

        assertThat(IntStream.rangeClosed(1, 3).mapToObj(retry::delayBeforeRetry))
                .containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20));
        assertThat(retry.allowsRetryAfter(4)).isFalse();
    }
}
