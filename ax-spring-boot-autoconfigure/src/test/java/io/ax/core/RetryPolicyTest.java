package io.ax.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    @Test
    void exponentialBackoffDoublesUpToTheMax() {
        RetryPolicy p = new RetryPolicy(10, Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofSeconds(10));
        assertThat(p.delayBeforeRetry(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(p.delayBeforeRetry(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(p.delayBeforeRetry(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(p.delayBeforeRetry(4)).isEqualTo(Duration.ofSeconds(8));
        assertThat(p.delayBeforeRetry(5)).isEqualTo(Duration.ofSeconds(10));
        assertThat(p.delayBeforeRetry(500)).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void fixedBackoffAlwaysWaitsTheBase() {
        RetryPolicy p = new RetryPolicy(3, Backoff.FIXED, Duration.ofMillis(500), Duration.ofSeconds(10));
        assertThat(p.delayBeforeRetry(1)).isEqualTo(Duration.ofMillis(500));
        assertThat(p.delayBeforeRetry(3)).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void retriesAreAllowedUpToTheConfiguredTimes() {
        RetryPolicy p = new RetryPolicy(2, Backoff.FIXED, Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertThat(p.allowsRetryAfter(1)).isTrue();
        assertThat(p.allowsRetryAfter(2)).isTrue();
        assertThat(p.allowsRetryAfter(3)).isFalse();
        assertThat(RetryPolicy.none().allowsRetryAfter(1)).isFalse();
    }

    @Test
    void badSettingsAreRejectedWithTheirValue() {
        assertThatThrownBy(() -> new RetryPolicy(-1, Backoff.FIXED, Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> new RetryPolicy(1, Backoff.FIXED, Duration.ZERO, Duration.ofSeconds(1)))
                .hasMessageContaining("base");
        assertThatThrownBy(() -> new RetryPolicy(1, Backoff.FIXED, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("max");
    }
}
