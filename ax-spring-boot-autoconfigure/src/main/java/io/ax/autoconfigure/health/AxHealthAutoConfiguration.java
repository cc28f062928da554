package io.ax.autoconfigure.health;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.AxProperties;
import io.ax.core.engine.AxEngine;
import java.util.Locale;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Bean;

/** The health component {@code ax}, when Spring Boot's health support is present. */
@AutoConfiguration(after = AxAutoConfiguration.class)
@ConditionalOnClass(AbstractHealthIndicator.class)
@ConditionalOnBean(AxEngine.class)
@ConditionalOnEnabledHealthIndicator("ax")
@EnableConfigurationProperties(AxProperties.class)
public final class AxHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "axHealthIndicator")
    AxHealthIndicator axHealthIndicator(
            AxEngine engine, AxProperties properties, ObjectProvider<AxHealthDetail> details) {
        AxProperties.Health health = properties.getHealth();
        return new AxHealthIndicator(
                engine,
                health.getMaxBacklogAge(),
                new Status(health.getBacklogStatus().trim().toUpperCase(Locale.ROOT)),
                details.orderedStream().toList(),
                health.getTimeout());
    }
}
