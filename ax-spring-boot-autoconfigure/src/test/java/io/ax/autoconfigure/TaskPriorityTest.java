package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import io.ax.core.AxJob;
import io.ax.core.engine.AxEngine;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** A task's priority comes from {@code @AxJob(priority)} or {@code ax.tasks.<name>.priority}; out of range, a message. */
class TaskPriorityTest {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class));

    @Configuration(proxyBeanMethods = false)
    static class Jobs {
        @AxJob(name = "payment", priority = 50, timeout = "5s")
        void payment() {}

        @AxJob(name = "plain", timeout = "5s")
        void plain() {}
    }

    @Configuration(proxyBeanMethods = false)
    static class TooHigh {
        @AxJob(name = "greedy", priority = 1001, timeout = "5s")
        void greedy() {}
    }

    @Test
    void theAnnotationAndThePropertiesSetATasksPriority() {
        runner.withUserConfiguration(Jobs.class)
                .withPropertyValues(
                        "ax.http.allowed-urls=http://a.test/",
                        "ax.tasks.export.type=HTTP",
                        "ax.tasks.export.target=http://a.test/export",
                        "ax.tasks.export.timeout=5s",
                        "ax.tasks.export.priority=-10")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AxEngine engine = context.getBean(AxEngine.class);
                    assertThat(engine.task("payment").orElseThrow().priority()).isEqualTo(50);
                    assertThat(engine.task("plain").orElseThrow().priority()).isZero();
                    assertThat(engine.task("export").orElseThrow().priority()).isEqualTo(-10);
                });
    }

    @Test
    void aPriorityOutOfRangeFailsStartUpNamingTheAttribute() {
        runner.withUserConfiguration(TooHigh.class).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            while (!(failure instanceof InvalidJobDefinitionException) && failure.getCause() != null) {
                failure = failure.getCause();
            }
            assertThat(failure)
                    .isInstanceOf(InvalidJobDefinitionException.class)
                    .hasMessageContaining("priority")
                    .hasMessageContaining("must be between -1000 and 1000, was 1001");
        });
    }

    @Test
    void aPoolsOvertakeLimitMustBePositive() {
        runner.withPropertyValues("ax.pools.reports.overtake-limit=0s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context)
                    .getFailure()
                    .hasStackTraceContaining("ax.pools.reports.overtake-limit must be positive, was PT0S");
        });
    }
}
