package io.ax.autoconfigure.observation;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.core.engine.AttemptTracer;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Each attempt as a Micrometer observation ({@code ax.attempt}), when the application has an
 * {@link ObservationRegistry}: with Spring Boot's tracing, a span per attempt.
 */
@AutoConfiguration(
        before = AxAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "ax.enabled", matchIfMissing = true)
public final class AxObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    AttemptTracer axAttemptTracer(ObservationRegistry registry) {
        return new ObservationAttemptTracer(registry);
    }
}
