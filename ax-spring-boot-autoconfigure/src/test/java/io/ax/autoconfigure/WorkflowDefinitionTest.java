package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.definitions.InvalidJobDefinitionException;
import io.ax.core.AxContext;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import io.ax.core.engine.AxEngine;
import io.ax.core.trigger.DependencyTrigger;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Workflows declared with @AxJob(dependsOn) and ax.tasks.*.trigger.depends-on, and what start-up refuses. */
class WorkflowDefinitionTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class));

    @Test
    void annotatedAndConfiguredStepsMakeOneWorkflow() {
        runner.withUserConfiguration(Pipeline.class)
                .withPropertyValues(
                        "ax.tasks.archive.type=LOCAL",
                        "ax.tasks.archive.target=workflowDefinitionTest.Pipeline.archive",
                        "ax.tasks.archive.timeout=5s",
                        "ax.tasks.archive.trigger.depends-on=load")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AxEngine engine = context.getBean(AxEngine.class);
                    assertThat(engine.task("load").orElseThrow().trigger())
                            .isEqualTo(DependencyTrigger.after("transform"));
                    assertThat(engine.task("archive").orElseThrow().trigger())
                            .isEqualTo(DependencyTrigger.after("load"));

                    String runId = engine.triggerNow("extract");

                    Pipeline pipeline = context.getBean(Pipeline.class);
                    await().atMost(BOUND).until(() -> pipeline.runs.containsKey("archive"));
                    assertThat(pipeline.runs)
                            .containsOnlyKeys("extract", "transform", "load", "archive")
                            .allSatisfy((task, run) -> assertThat(run).as(task).isEqualTo(runId));
                    assertThat(pipeline.seenByLoad).containsExactly(Map.entry("transform", "42 rows"));
                });
    }

    @Test
    void anAnnotatedCycleFailsStartUpNamingIt() {
        runner.withUserConfiguration(Cycle.class)
                .run(context -> assertThat(failure(context))
                        .hasMessageContaining("attribute 'dependsOn'")
                        .hasMessageContaining("the workflow has a cycle: ping -> pong -> ping"));
    }

    @Test
    void aConfiguredStepWithAnUnknownUpstreamFailsStartUpNamingTheProperty() {
        runner.withUserConfiguration(Pipeline.class)
                .withPropertyValues(
                        "ax.tasks.archive.type=LOCAL",
                        "ax.tasks.archive.target=workflowDefinitionTest.Pipeline.archive",
                        "ax.tasks.archive.timeout=5s",
                        "ax.tasks.archive.trigger.depends-on=lode")
                .run(context -> assertThat(failure(context))
                        .hasMessageStartingWith("Invalid task ax.tasks.archive: attribute 'trigger.depends-on': ")
                        .hasMessageContaining("upstream task 'lode' does not exist"));
    }

    @Test
    void aStepWithATriggerOfItsOwnFailsStartUp() {
        runner.withPropertyValues(
                        "ax.http.allowed-urls=http://a.test/",
                        "ax.tasks.root.type=HTTP",
                        "ax.tasks.root.target=http://a.test/root",
                        "ax.tasks.root.timeout=5s",
                        "ax.tasks.both.type=HTTP",
                        "ax.tasks.both.target=http://a.test/both",
                        "ax.tasks.both.timeout=5s",
                        "ax.tasks.both.trigger.cron=0 0 * * * ?",
                        "ax.tasks.both.trigger.depends-on=root")
                .run(context -> assertThat(failure(context))
                        .hasMessageContaining("set only one trigger, found trigger.cron and trigger.depends-on"));
    }

    private static Throwable failure(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        Throwable failure = context.getStartupFailure();
        while (!(failure instanceof InvalidJobDefinitionException) && failure.getCause() != null) {
            failure = failure.getCause();
        }
        assertThat(failure).isInstanceOf(InvalidJobDefinitionException.class);
        return failure;
    }

    @Configuration(proxyBeanMethods = false)
    static class Pipeline {
        final Map<String, String> runs = new ConcurrentHashMap<>();
        final Map<String, String> seenByLoad = new ConcurrentHashMap<>();

        @AxJob(name = "extract", timeout = "5s")
        void extract(AxContext context) {
            runs.put("extract", context.runId());
        }

        @AxJob(name = "transform", dependsOn = "extract", timeout = "5s")
        AxResult transform(AxContext context) {
            runs.put("transform", context.runId());
            return AxResult.success("42 rows");
        }

        @AxJob(name = "load", dependsOn = "transform", timeout = "5s")
        void load(AxContext context) {
            seenByLoad.putAll(context.upstreamResults());
            runs.put("load", context.runId());
        }

        void archive(AxContext context) {
            runs.put("archive", context.runId());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Cycle {
        @AxJob(name = "start", timeout = "1s")
        void start() {}

        @AxJob(
                name = "ping",
                dependsOn = {"start", "pong"},
                timeout = "1s")
        void ping() {}

        @AxJob(name = "pong", dependsOn = "ping", timeout = "1s")
        void pong() {}
    }
}
