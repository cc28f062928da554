package io.ax.autoconfigure.adopt.scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.autoconfigure.adopt.AdoptedTasks;
import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import io.ax.autoconfigure.endpoint.AxDescriptors;
import io.ax.autoconfigure.endpoint.AxEndpoint;
import io.ax.autoconfigure.endpoint.AxEndpointAutoConfiguration;
import io.ax.autoconfigure.metrics.AxMetricsAutoConfiguration;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.MisfirePolicy;
import io.ax.core.engine.AxEngine;
import io.ax.core.trigger.IntervalTrigger;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.ScheduledAnnotationBeanPostProcessor;
import org.springframework.scheduling.config.ScheduledTask;

/**
 * {@code ax.adopt.scheduled}: the adopted {@code @Scheduled} methods run through AX and no longer on Spring's
 * scheduler; the others stay Spring's; without the setting, or without {@code @EnableScheduling}, nothing changes.
 */
class ScheduledAdoptionTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(AxAutoConfiguration.class, AxScheduledAdoptionAutoConfiguration.class));

    /** Who ran each method: the names of the threads. */
    static final class Runs {
        final Map<String, List<String>> threads = new ConcurrentHashMap<>();

        void ran(String method) {
            threads.computeIfAbsent(method, m -> new CopyOnWriteArrayList<>())
                    .add(Thread.currentThread().getName());
        }

        int count(String method) {
            return threads.getOrDefault(method, List.of()).size();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class App {
        @Bean
        Runs runs() {
            return new Runs();
        }

        @Bean
        Reports reports(Runs runs) {
            return new Reports(runs);
        }
    }

    static class Reports {
        private final Runs runs;

        Reports(Runs runs) {
            this.runs = runs;
        }

        @Scheduled(fixedRate = 100)
        void refresh() {
            runs.ran("refresh");
        }

        @Scheduled(fixedDelayString = "${reports.delay:PT0.1S}", initialDelay = 50)
        void tidy() {
            runs.ran("tidy");
        }

        @Scheduled(cron = "-")
        void disabled() {
            runs.ran("disabled");
        }

        @Scheduled(initialDelay = 10)
        void once() {
            runs.ran("once");
        }
    }

    @Test
    void adoptedMethodsRunOnAxWorkersAndSpringSchedulesOnlyTheOneTimeMethod() {
        runner.withUserConfiguration(App.class)
                .withPropertyValues("ax.adopt.scheduled=all")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AxEngine engine = context.getBean(AxEngine.class);
                    Runs runs = context.getBean(Runs.class);
                    assertThat(engine.task("Reports.refresh")).isPresent();
                    assertThat(engine.task("Reports.tidy")).isPresent();
                    assertThat(engine.task("Reports.disabled")).isEmpty();
                    assertThat(engine.task("Reports.once")).isEmpty();
                    assertThat(context.getBean(AdoptedTasks.class).all())
                            .containsOnlyKeys("Reports.refresh", "Reports.tidy")
                            .containsEntry(
                                    "Reports.refresh", "@Scheduled on " + Reports.class.getName() + ".refresh()");

                    ScheduledAnnotationBeanPostProcessor spring =
                            context.getBean(ScheduledAnnotationBeanPostProcessor.class);
                    assertThat(spring).isInstanceOf(AdoptingScheduledAnnotationBeanPostProcessor.class);
                    assertThat(spring.getScheduledTasks())
                            .extracting(ScheduledTask::toString)
                            .singleElement()
                            .asString()
                            .contains("once");

                    await().atMost(BOUND).until(() -> runs.count("refresh") >= 3 && runs.count("tidy") >= 3);
                    assertThat(runs.threads.get("refresh")).allMatch(t -> t.startsWith("ax-"));
                    assertThat(runs.threads.get("tidy")).allMatch(t -> t.startsWith("ax-"));
                    assertThat(runs.count("disabled")).isZero();
                    await().atMost(BOUND).until(() -> runs.count("once") == 1);
                    assertThat(runs.threads.get("once")).noneMatch(t -> t.startsWith("ax-"));
                    assertThat(engine.instancesOf("Reports.refresh", 100))
                            .anyMatch(i -> i.state() == InstanceState.SUCCESS);
                });
    }

    @Test
    void theEndpointMarksAdoptedTasksAndTheMeterCountsThem() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        AxAutoConfiguration.class,
                        AxScheduledAdoptionAutoConfiguration.class,
                        AxEndpointAutoConfiguration.class,
                        AxMetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class)
                .withUserConfiguration(App.class)
                .withPropertyValues("ax.adopt.scheduled=all", "management.endpoints.web.exposure.include=ax")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AxEndpoint endpoint = context.getBean(AxEndpoint.class);
                    AxDescriptors.Task refresh = (AxDescriptors.Task)
                            endpoint.item("tasks", "Reports.refresh").getBody();
                    assertThat(refresh.adoptedFrom())
                            .isEqualTo("@Scheduled on " + Reports.class.getName() + ".refresh()");
                    AxDescriptors.Tasks tasks =
                            (AxDescriptors.Tasks) endpoint.section("tasks", null, null, null, null, null, null, null)
                                    .getBody();
                    assertThat(tasks.tasks())
                            .extracting(AxDescriptors.Task::adoptedFrom)
                            .doesNotContainNull();
                    assertThat(context.getBean(MeterRegistry.class)
                                    .get("ax.tasks.adopted")
                                    .gauge()
                                    .value())
                            .isEqualTo(2.0);
                });
    }

    @Test
    void eachDeclarationBecomesATaskThatFiresAsSpringWouldAndNeverOverlapsOrRetries() {
        runner.withUserConfiguration(App.class)
                .withPropertyValues("ax.adopt.scheduled=all", "reports.delay=3s", "ax.adopt.timeout=10m")
                .run(context -> {
                    AxEngine engine = context.getBean(AxEngine.class);
                    AxTask refresh = engine.task("Reports.refresh").orElseThrow();
                    assertThat(refresh.trigger())
                            .isEqualTo(IntervalTrigger.fixedRate(Duration.ofMillis(100), Duration.ZERO));
                    assertThat(refresh.type()).isEqualTo(AxTask.LOCAL);
                    assertThat(refresh.target()).isEqualTo("reports.refresh");
                    assertThat(refresh.concurrent()).isFalse();
                    assertThat(refresh.retry().maxRetries()).isZero();
                    assertThat(refresh.misfire()).isEqualTo(MisfirePolicy.FIRE_ONCE);
                    assertThat(refresh.timeout()).isEqualTo(Duration.ofMinutes(10));
                    assertThat(engine.task("Reports.tidy").orElseThrow().trigger())
                            .isEqualTo(IntervalTrigger.fixedDelay(Duration.ofSeconds(3), Duration.ofMillis(50)));
                });
    }

    @Test
    void withoutTheSettingSpringRunsEveryMethodAndAxAdoptsNone() {
        runner.withUserConfiguration(App.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(ScheduledMethodAdoption.class);
            assertThat(context.getBean(ScheduledAnnotationBeanPostProcessor.class))
                    .isNotInstanceOf(AdoptingScheduledAnnotationBeanPostProcessor.class);
            assertThat(context.getBean(AxEngine.class).tasks()).isEmpty();
            Runs runs = context.getBean(Runs.class);
            await().atMost(BOUND).until(() -> runs.count("refresh") >= 2 && runs.count("tidy") >= 2);
            assertThat(runs.threads.get("refresh")).noneMatch(t -> t.startsWith("ax-"));
        });
        runner.withUserConfiguration(App.class)
                .withPropertyValues("ax.adopt.scheduled=off")
                .run(context ->
                        assertThat(context.getBean(AxEngine.class).tasks()).isEmpty());
    }

    @Configuration(proxyBeanMethods = false)
    static class WithoutEnableScheduling {
        @Bean
        Runs runs() {
            return new Runs();
        }

        @Bean
        Reports reports(Runs runs) {
            return new Reports(runs);
        }
    }

    @Test
    void withoutEnableSchedulingNothingRunsAsBefore() {
        runner.withUserConfiguration(WithoutEnableScheduling.class)
                .withPropertyValues("ax.adopt.scheduled=all")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(AxEngine.class).tasks()).isEmpty();
                    assertThat(context).doesNotHaveBean(ScheduledAnnotationBeanPostProcessor.class);
                });
    }

    @Test
    void aDisabledAxAdoptsNothing() {
        runner.withUserConfiguration(App.class)
                .withPropertyValues("ax.adopt.scheduled=all", "ax.enabled=false")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ScheduledAnnotationBeanPostProcessor.class))
                            .isNotInstanceOf(AdoptingScheduledAnnotationBeanPostProcessor.class);
                    Runs runs = context.getBean(Runs.class);
                    await().atMost(BOUND).until(() -> runs.count("refresh") >= 2);
                });
    }

    static class Repeated {
        final AtomicInteger runs = new AtomicInteger();

        @Scheduled(fixedRate = 60_000)
        @Scheduled(cron = "0 0 * * * *", zone = "Europe/Berlin")
        void sync() {
            runs.incrementAndGet();
        }
    }

    static class First {
        static class Jobs {
            @Scheduled(fixedRate = 60_000)
            void run() {}
        }
    }

    static class Second {
        static class Jobs {
            @Scheduled(fixedRate = 60_000)
            void run() {}
        }
    }

    static class Twin {
        @Scheduled(fixedRate = 60_000)
        void poll() {}
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class Names {
        @Bean
        Twin europe() {
            return new Twin();
        }

        @Bean
        Twin america() {
            return new Twin();
        }

        @Bean
        Repeated repeated() {
            return new Repeated();
        }

        @Bean
        First.Jobs firstJobs() {
            return new First.Jobs();
        }

        @Bean
        Second.Jobs secondJobs() {
            return new Second.Jobs();
        }
    }

    @Test
    void
            namesAreClassAndMethodNumberedForRepeatsFullWhereTwoClassesShareASimpleNameAndByBeanWhereTwoBeansShareAClass() {
        runner.withUserConfiguration(Names.class)
                .withPropertyValues("ax.adopt.scheduled=all")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(AxEngine.class).tasks())
                            .extracting(AxTask::name)
                            .containsExactlyInAnyOrder(
                                    "Repeated.sync:1",
                                    "europe.poll",
                                    "america.poll",
                                    "Repeated.sync:2",
                                    First.Jobs.class.getName() + ".run",
                                    Second.Jobs.class.getName() + ".run");
                });
    }

    static class TwoSchedules {
        @Scheduled(fixedRate = 1000, cron = "0 * * * * *")
        void both() {}
    }

    static class TakesAnArgument {
        @Scheduled(fixedRate = 1000)
        void report(String what) {}
    }

    static class ZeroRate {
        @Scheduled(fixedRate = 0)
        void spin() {}
    }

    static class BadDuration {
        @Scheduled(fixedDelayString = "soon")
        void later() {}
    }

    @Test
    void aDeclarationSpringWouldRefuseFailsStartUpWithSpringsReason() {
        refused(TwoSchedules.class, "fixedRate", "Exactly one of the 'cron', 'fixedDelay' or 'fixedRate'");
        refused(TakesAnArgument.class, "method", "Only no-arg methods may be annotated with @Scheduled");
        refused(ZeroRate.class, "fixedRate", "must be positive");
        refused(BadDuration.class, "fixedDelayString", "Invalid fixedDelayString value \"soon\"");
    }

    private void refused(Class<?> jobs, String attribute, String reason) {
        runner.withUserConfiguration(EnableSchedulingOnly.class)
                .withBean(jobs)
                .withPropertyValues("ax.adopt.scheduled=all")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                            .isInstanceOf(InvalidJobDefinitionException.class)
                            .hasMessageContaining("@Scheduled on " + jobs.getName())
                            .hasMessageContaining("attribute '" + attribute + "'")
                            .hasMessageContaining(reason);
                });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class EnableSchedulingOnly {}
}
