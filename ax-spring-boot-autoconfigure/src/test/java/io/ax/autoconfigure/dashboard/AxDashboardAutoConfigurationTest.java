package io.ax.autoconfigure.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.endpoint.AxEndpointAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.servlet.function.RouterFunction;

/** The dashboard is served only when asked for, by a servlet web application with AX. */
class AxDashboardAutoConfigurationTest {

    private final WebApplicationContextRunner web = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    AxAutoConfiguration.class, AxEndpointAutoConfiguration.class, AxDashboardAutoConfiguration.class));

    @Test
    void isOffUnlessEnabled() {
        web.run(context -> assertThat(context).doesNotHaveBean("axDashboardRoutes"));
    }

    @Test
    void servesItsRoutesWhenEnabled() {
        web.withPropertyValues("ax.dashboard.enabled=true").run(context -> {
            assertThat(context).hasBean("axDashboardRoutes").hasSingleBean(DashboardSessions.class);
            assertThat(context.getBean("axDashboardRoutes")).isInstanceOf(RouterFunction.class);
        });
    }

    @Test
    void backsOffOutsideAServletWebApplication() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class, AxDashboardAutoConfiguration.class))
                .withPropertyValues("ax.dashboard.enabled=true")
                .run(context -> assertThat(context).doesNotHaveBean("axDashboardRoutes"));
    }

    @Test
    void backsOffWithoutSpringMvc() {
        web.withPropertyValues("ax.dashboard.enabled=true")
                .withClassLoader(new FilteredClassLoader(RouterFunction.class))
                .run(context -> assertThat(context).doesNotHaveBean("axDashboardRoutes"));
    }

    @Test
    void backsOffWhenAxIsOff() {
        web.withPropertyValues("ax.dashboard.enabled=true", "ax.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("axDashboardRoutes"));
    }

    @Test
    void aPathAtTheRootIsRefusedWithTheReason() {
        web.withPropertyValues("ax.dashboard.enabled=true", "ax.dashboard.path=/")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("ax.dashboard.path must name a path below the root"));
    }
}
