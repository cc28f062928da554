package io.ax.autoconfigure.metrics;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.AxProperties;
import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.core.AxTask;
import io.ax.core.engine.AxEngine;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** AX's Micrometer meters ({@code ax.*}), when the application has a {@link MeterRegistry}. */
@AutoConfiguration(
        after = AxAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"
        })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "ax.enabled", matchIfMissing = true)
@EnableConfigurationProperties(AxProperties.class)
public final class AxMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    AxMetrics axMetrics(
            MeterRegistry registry,
            ObjectProvider<AxEngine> engine,
            AxProperties properties,
            ObjectProvider<AdoptedTasks> adopted) {
        Set<String> groups = new LinkedHashSet<>();
        groups.add(AxTask.DEFAULT_GROUP);
        groups.addAll(properties.getPools().keySet());
        return new AxMetrics(
                registry,
                engine,
                properties.getMetrics().isTaskTag(),
                groups,
                adopted.getIfAvailable(AdoptedTasks::new));
    }
}
