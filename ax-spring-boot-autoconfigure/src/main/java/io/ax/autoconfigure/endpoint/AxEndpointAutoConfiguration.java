package io.ax.autoconfigure.endpoint;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.AxProperties;
import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.autoconfigure.adopt.quartz.QuartzImportOperation;
import io.ax.core.clock.AxClock;
import io.ax.core.engine.AxEngine;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@code ax} Actuator endpoint, when Actuator is present and the endpoint is exposed. */
@AutoConfiguration(after = AxAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBean(AxEngine.class)
public final class AxEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(AxEndpoint.class)
    TaskActivity axTaskActivity() {
        return new TaskActivity();
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(AxEndpoint.class)
    AxEndpoint axEndpoint(
            AxEngine engine,
            TaskActivity activity,
            AxClock clock,
            AxProperties properties,
            AdoptedTasks adopted,
            ObjectProvider<QuartzImportOperation> quartzImport) {
        return new AxEndpoint(
                engine,
                activity,
                clock,
                properties.getDashboard().stackTraceRole(),
                adopted,
                quartzImport::getIfAvailable);
    }
}
