package io.ax.docs.failures;

import io.ax.core.Backoff;
import io.ax.core.RetryPolicy;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The failures guide: the retry policy of every task that sets none, as a bean. */
@Configuration(proxyBeanMethods = false)
class RetryDefaults {

    // tag::retry-policy-bean[]
    @Bean
    RetryPolicy axRetryPolicy() {
        // 3 retries after the first attempt, waiting 5 s, 10 s, 20 s (never more than 1 min)
        return new RetryPolicy(3, Backoff.EXPONENTIAL, Duration.ofSeconds(5), Duration.ofMinutes(1));
    }
    // end::retry-policy-bean[]
}
