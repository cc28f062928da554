package io.ax.autoconfigure.dashboard;

import io.ax.autoconfigure.AxProperties;
import io.ax.autoconfigure.endpoint.AxEndpoint;
import io.ax.autoconfigure.endpoint.AxEndpointAutoConfiguration;
import io.ax.core.engine.AxEngine;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The operator's dashboard, at {@code ax.dashboard.path} (default {@code /ax}), when {@code ax.dashboard.enabled}
 * is true in a servlet web application with Actuator. Its pages are static files of this jar; they read and act
 * through the {@code ax} Actuator endpoint with the browser's session, so the application's own security decides
 * who sees and who acts.
 */
@AutoConfiguration(
        after = AxEndpointAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration"
        })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({RouterFunction.class, WebEndpoint.class})
@ConditionalOnBooleanProperty("ax.dashboard.enabled")
@ConditionalOnBean(AxEngine.class)
@EnableConfigurationProperties(AxProperties.class)
public final class AxDashboardAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DashboardSessions axDashboardSessions(
            AxProperties properties,
            ObjectProvider<PathMappedEndpoints> endpoints,
            ObjectProvider<EndpointAccessResolver> access) {
        return new DashboardSessions(
                properties.getDashboard().getWriteRole(), new EndpointFacts(endpoints, access, AxEndpoint.class));
    }

    @Bean
    @ConditionalOnMissingBean(name = "axDashboardRoutes")
    RouterFunction<ServerResponse> axDashboardRoutes(AxProperties properties, DashboardSessions sessions) {
        return DashboardRoutes.of(properties.getDashboard().getPath(), sessions);
    }
}
