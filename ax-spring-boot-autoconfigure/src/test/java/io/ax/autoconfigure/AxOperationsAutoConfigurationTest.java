package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.endpoint.AxEndpoint;
import io.ax.autoconfigure.endpoint.AxEndpointAutoConfiguration;
import io.ax.autoconfigure.health.AxHealthAutoConfiguration;
import io.ax.autoconfigure.metrics.AxMetricsAutoConfiguration;
import io.ax.core.AxJob;
import io.ax.core.engine.AxEngine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Metrics, health and endpoint: each wired when its library is there, and only then. */
class AxOperationsAutoConfigurationTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final ApplicationContextRunner metrics = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class, AxMetricsAutoConfiguration.class))
            .withBean(SimpleMeterRegistry.class);

    @Test
    void bindsEveryAxMeterToTheRegistry() {
        metrics.withUserConfiguration(Jobs.class).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            AxEngine engine = context.getBean(AxEngine.class);
            engine.triggerNow("handler");
            engine.triggerNow("doomed");
            await().atMost(BOUND)
                    .until(() -> count(registry, "ax.dead.letters") == 1
                            && registry.find("ax.execution")
                                            .tag("task", "handler")
                                            .timer()
                                    != null);

            Timer success = registry.get("ax.execution")
                    .tags("task", "handler", "group", "default", "outcome", "success")
                    .timer();
            assertThat(success.count()).isEqualTo(1);
            assertThat(registry.get("ax.execution")
                            .tags("task", "doomed", "outcome", "failed")
                            .timer()
                            .count())
                    .isEqualTo(2);
            assertThat(registry.get("ax.retries")
                            .tag("task", "doomed")
                            .counter()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.get("ax.dead.letters")
                            .tag("task", "doomed")
                            .counter()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.get("ax.dispatch")
                            .tags("outcome", "dispatched", "group", "default")
                            .counter()
                            .count())
                    .isEqualTo(3);
            assertThat(registry.get("ax.dispatch")
                            .tag("outcome", "skipped")
                            .counter()
                            .count())
                    .isZero();
            assertThat(registry.get("ax.node.received").counter().count()).isEqualTo(3);
            assertThat(registry.get("ax.trigger.lateness").timer().count()).isEqualTo(2);
            assertThat(registry.get("ax.ack.latency").timer().count()).isEqualTo(3);
            assertThat(registry.get("ax.backlog")
                            .tag("group", "default")
                            .gauge()
                            .value())
                    .isZero();
            assertThat(registry.get("ax.wheel.entries").gauge().value()).isNotNaN();
            assertThat(registry.get("ax.leader").gauge().value()).isEqualTo(1);
            assertThat(registry.get("ax.clock.jumps")
                            .tag("direction", "forwards")
                            .counter()
                            .count())
                    .isZero();
            assertThat(registry.get("ax.clock.jumps")
                            .tag("direction", "backwards")
                            .counter()
                            .count())
                    .isZero();
        });
    }

    @Test
    void countsTheInstancesRetentionDeletes() {
        metrics.withUserConfiguration(Jobs.class)
                .withPropertyValues("ax.retention.finished=1ms", "ax.retention.interval=20ms")
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.find("ax.retention.deleted").counter())
                            .as("the series exists from the start")
                            .isNotNull();
                    AxEngine engine = context.getBean(AxEngine.class);
                    String id = engine.triggerNow("handler");
                    await().atMost(BOUND).until(() -> engine.find(id).isEmpty());
                    await().atMost(BOUND).until(() -> count(registry, "ax.retention.deleted") >= 1);
                });
    }

    @Test
    void leavesTheTaskTagOutWhenThereAreTooManyTasks() {
        metrics.withUserConfiguration(Jobs.class)
                .withPropertyValues("ax.metrics.task-tag=false")
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    context.getBean(AxEngine.class).triggerNow("handler");
                    await().atMost(BOUND)
                            .until(() -> registry.find("ax.execution").timer() != null);
                    assertThat(registry.get("ax.execution").timer().getId().getTag("task"))
                            .isNull();
                    assertThat(registry.get("ax.execution").timer().getId().getTag("group"))
                            .isEqualTo("default");
                });
    }

    @Test
    void bindsNothingWithoutAMeterRegistry() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class, AxMetricsAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasSingleBean(AxEngine.class);
                    assertThat(context).doesNotHaveBean("axMetrics");
                });
    }

    @Test
    void providesTheHealthComponentUnlessItIsDisabled() {
        ApplicationContextRunner health = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class, AxHealthAutoConfiguration.class));
        health.run(context -> assertThat(context).hasBean("axHealthIndicator"));
        health.withPropertyValues("management.health.ax.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("axHealthIndicator"));
    }

    @Test
    void providesTheEndpointOnlyWhenItIsExposed() {
        WebApplicationContextRunner web = new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class, AxEndpointAutoConfiguration.class));
        web.run(context -> {
            assertThat(context).doesNotHaveBean(AxEndpoint.class);
            assertThat(context).doesNotHaveBean("axTaskActivity");
        });
        web.withPropertyValues("management.endpoints.web.exposure.include=ax").run(context -> {
            assertThat(context).hasSingleBean(AxEndpoint.class);
            assertThat(context).hasBean("axTaskActivity");
        });
    }

    @Test
    void turnsOffWithTheRestOfAx() {
        metrics.withPropertyValues("ax.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(AxEngine.class);
            assertThat(context).doesNotHaveBean("axMetrics");
        });
    }

    private static double count(MeterRegistry registry, String counter) {
        return registry.find(counter).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {
        @AxJob(name = "handler", timeout = "5s")
        void handler() {}

        @AxJob(name = "doomed", timeout = "5s", retry = @AxJob.Retry(times = "1", base = "10ms"))
        void doomed() {
            throw new IllegalStateException("always");
        }
    }
}
