package io.ax.autoconfigure.observation;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.core.engine.TraceContextCapture;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Keeps the trace a caller of {@code AxScheduler} is in with the instances it schedules, when the application has
 * Micrometer Tracing's {@link Tracer} and {@link Propagator} (Spring Boot's Brave or OpenTelemetry bridge): the
 * attempts' {@code ax.attempt} spans then continue that trace ({@link AxObservationAutoConfiguration}).
 */
@AutoConfiguration(
        before = AxAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration",
            "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration",
            "org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration"
        })
@ConditionalOnClass({Tracer.class, Propagator.class})
@ConditionalOnBean({Tracer.class, Propagator.class})
@ConditionalOnBooleanProperty(name = "ax.enabled", matchIfMissing = true)
public final class AxTracingAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    TraceContextCapture axTraceContextCapture(Tracer tracer, Propagator propagator) {
        return new TracerTraceContextCapture(tracer, propagator);
    }
}
