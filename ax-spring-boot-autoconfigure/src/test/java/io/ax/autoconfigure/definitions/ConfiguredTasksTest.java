package io.ax.autoconfigure.definitions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.autoconfigure.AxAutoConfiguration;
import io.ax.core.AxContext;
import io.ax.core.AxDeadLetterHandler;
import io.ax.core.AxExecutor;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.DeadLetter;
import io.ax.core.Durability;
import io.ax.core.InstanceState;
import io.ax.core.MisfirePolicy;
import io.ax.core.RetryPolicy;
import io.ax.core.engine.AxEngine;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.core.trigger.OnDemandTrigger;
import io.ax.executor.HttpExecutor;
import io.ax.executor.ShellExecutor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Tasks defined under ax.tasks, custom executors, the default retry policy and the dead-letter handler. */
class ConfiguredTasksTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @TempDir
    Path scripts;

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class));

    @Test
    void providesTheExecutorsTheDefaultRetryPolicyAndTheDeadLetterHandler() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(HttpExecutor.class).hasSingleBean(ShellExecutor.class);
            assertThat(context).hasSingleBean(AxDeadLetterHandler.class).hasSingleBean(RetryPolicy.class);
            assertThat(context.getBean(RetryPolicy.class))
                    .isEqualTo(new RetryPolicy(0, Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofMinutes(5)));
        });
    }

    @Test
    void badExecutorSettingsFailStartUpSayingWhich() {
        runner.withPropertyValues("ax.http.allowed-urls=example.org/api")
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasStackTraceContaining(
                                "ax.http.allowed-urls: 'example.org/api' is not an absolute http or https URL"));
        runner.withPropertyValues("ax.shell.enabled=true")
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasStackTraceContaining("ax.shell.script-dir must be set when ax.shell.enabled=true"));
        runner.withPropertyValues("ax.shell.enabled=true", "ax.shell.script-dir=" + scripts.resolve("nowhere"))
                .run(context -> assertThat(context).getFailure().hasStackTraceContaining("does not exist"));
        runner.withPropertyValues("ax.retry.times=-1")
                .run(context ->
                        assertThat(context).getFailure().hasStackTraceContaining("Invalid AX settings ax.retry"));
    }

    @Test
    void readsEveryAttributeOfAnHttpTask() {
        runner.withPropertyValues(
                        "ax.http.allowed-urls[0]=https://api.example.com/v1",
                        "ax.tasks.report.type=HTTP",
                        "ax.tasks.report.target=https://api.example.com/v1/reports/${region}",
                        "ax.tasks.report.params.method=POST",
                        "ax.tasks.report.params.region=eu",
                        "ax.tasks.report.params.header.Authorization=Bearer ${api.token}",
                        "api.token=from-a-property",
                        "ax.tasks.report.trigger.cron=0 0 6 * * ?",
                        "ax.tasks.report.trigger.zone=Europe/Paris",
                        "ax.tasks.report.retry.times=3",
                        "ax.tasks.report.retry.backoff=FIXED",
                        "ax.tasks.report.retry.base=2s",
                        "ax.tasks.report.retry.max=2s",
                        "ax.tasks.report.timeout=30s",
                        "ax.tasks.report.concurrent=true",
                        "ax.tasks.report.group=reports",
                        "ax.tasks.report.durability=MEMORY",
                        "ax.tasks.report.misfire=SKIP")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AxTask task = task(context, "report");
                    assertThat(task.type()).isEqualTo(HttpExecutor.TYPE);
                    assertThat(task.target()).isEqualTo("https://api.example.com/v1/reports/${region}");
                    assertThat(task.params())
                            .containsEntry("method", "POST")
                            .containsEntry("region", "eu")
                            .containsEntry("header.Authorization", "Bearer from-a-property");
                    assertThat(task.trigger()).isEqualTo(CronTrigger.of("0 0 6 * * ?", ZoneId.of("Europe/Paris")));
                    assertThat(task.retry())
                            .isEqualTo(new RetryPolicy(3, Backoff.FIXED, Duration.ofSeconds(2), Duration.ofSeconds(2)));
                    assertThat(task.timeout()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(task.concurrent()).isTrue();
                    assertThat(task.group()).isEqualTo("reports");
                    assertThat(task.durability()).isEqualTo(Durability.MEMORY);
                    assertThat(task.misfire()).isEqualTo(MisfirePolicy.SKIP);
                });
    }

    @Test
    void aShellTaskTakesItsArgumentsAsAListAndRuns() throws IOException {
        Path script = scripts.resolve("greet.sh");
        Files.writeString(script, "#!/bin/sh\nprintf '%s|' \"$@\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        runner.withPropertyValues(
                        "ax.shell.enabled=true",
                        "ax.shell.script-dir=" + scripts,
                        "ax.tasks.greet.type=SHELL",
                        "ax.tasks.greet.target=greet.sh",
                        "ax.tasks.greet.params.args[0]=hello world",
                        "ax.tasks.greet.params.args[1]=${attempt}",
                        "ax.tasks.greet.trigger.fixed-delay=1h",
                        "ax.tasks.greet.trigger.initial-delay=1h",
                        "ax.tasks.greet.timeout=5s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    AxTask task = task(context, "greet");
                    assertThat(task.params()).containsEntry("args.0", "hello world");
                    assertThat(task.trigger())
                            .isEqualTo(IntervalTrigger.fixedDelay(Duration.ofHours(1), Duration.ofHours(1)));
                    AxEngine engine = context.getBean(AxEngine.class);
                    String id = engine.triggerNow("greet");
                    await().atMost(BOUND)
                            .until(() ->
                                    engine.find(id).orElseThrow().instance().state() == InstanceState.SUCCESS);
                    assertThat(engine.find(id).orElseThrow().auditTrail())
                            .last()
                            .satisfies(e -> assertThat(e.reason()).contains("stdout (14 bytes): hello world|1|"));
                });
    }

    @Test
    void aLocalTaskRunsTheBeanMethodItNames() {
        runner.withUserConfiguration(Greeter.class)
                .withPropertyValues(
                        "ax.tasks.hello.type=LOCAL",
                        "ax.tasks.hello.target=configuredTasksTest.Greeter.greet",
                        "ax.tasks.hello.params.who=world",
                        "ax.tasks.hello.timeout=5s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(AxEngine.class).triggerNow("hello");
                    Greeter greeter = context.getBean(Greeter.class);
                    await().atMost(BOUND).until(() -> greeter.greeted.contains("world"));
                });
    }

    @Test
    void aCustomExecutorBeanClaimsItsOwnTaskType() {
        runner.withUserConfiguration(PigeonPost.class)
                .withPropertyValues(
                        "ax.tasks.letter.type=PIGEON", "ax.tasks.letter.target=grandma", "ax.tasks.letter.timeout=5s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(AxEngine.class).triggerNow("letter");
                    PigeonPost post = context.getBean(PigeonPost.class);
                    await().atMost(BOUND).until(() -> post.sent.contains("grandma"));
                });
    }

    @Test
    void tasksThatSetNoRetryGetTheDefaultPolicy() {
        runner.withUserConfiguration(AnnotatedJobs.class)
                .withPropertyValues(
                        "ax.retry.times=4",
                        "ax.retry.backoff=FIXED",
                        "ax.retry.base=3s",
                        "ax.retry.max=3s",
                        "ax.tasks.plain.type=LOCAL",
                        "ax.tasks.plain.target=configuredTasksTest.AnnotatedJobs.plain",
                        "ax.tasks.plain.timeout=5s",
                        "ax.tasks.own.type=LOCAL",
                        "ax.tasks.own.target=configuredTasksTest.AnnotatedJobs.plain",
                        "ax.tasks.own.timeout=5s",
                        "ax.tasks.own.retry.times=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    RetryPolicy byDefault =
                            new RetryPolicy(4, Backoff.FIXED, Duration.ofSeconds(3), Duration.ofSeconds(3));
                    assertThat(task(context, "plain").retry()).isEqualTo(byDefault);
                    assertThat(task(context, "annotated").retry()).isEqualTo(byDefault);
                    assertThat(task(context, "own").retry())
                            .isEqualTo(new RetryPolicy(
                                    1, Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofMinutes(5)));
                    assertThat(task(context, "annotatedOwn").retry().maxRetries())
                            .isEqualTo(2);
                });
    }

    @Test
    void axJobTakesDurabilityAndParams() {
        runner.withUserConfiguration(AnnotatedJobs.class)
                .withPropertyValues("region=eu")
                .run(context -> {
                    AxTask task = task(context, "annotated");
                    assertThat(task.durability()).isEqualTo(Durability.MEMORY);
                    assertThat(task.params()).containsExactlyInAnyOrderEntriesOf(Map.of("region", "eu", "size", "10"));
                    assertThat(task(context, "annotatedOwn").durability()).isEqualTo(Durability.PERSISTENT);
                });
    }

    @Test
    void theDeadLetterHandlerIsTheApplicationsWhenItDeclaresOne() {
        runner.withUserConfiguration(Pager.class)
                .withPropertyValues(
                        "ax.tasks.doomed.type=LOCAL",
                        "ax.tasks.doomed.target=configuredTasksTest.Pager.fail",
                        "ax.tasks.doomed.timeout=5s")
                .run(context -> {
                    assertThat(context).getBean(AxDeadLetterHandler.class).isSameAs(Pager.HANDLER);
                    context.getBean(AxEngine.class).triggerNow("doomed");
                    await().atMost(BOUND).until(() -> Pager.PAGED.size() == 1);
                    assertThat(Pager.PAGED.get(0).taskName()).isEqualTo("doomed");
                    assertThat(context.getBean(AxEngine.class).store().deadLetters(0, 10))
                            .as("recorded whoever handles it")
                            .extracting(DeadLetter::instanceId)
                            .containsExactly(Pager.PAGED.get(0).instanceId());
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            no type            | target=x                                         | type                 | must be set: LOCAL, HTTP, SHELL
            unknown type       | type=PIGEON;target=x                             | type                 | no executor claims task type 'PIGEON'
            URL not allowed    | type=HTTP;target=http://example.org/             | target               | is not under any of ax.http.allowed-urls
            shell disabled     | type=SHELL;target=run.sh                         | type                 | SHELL tasks are disabled; set ax.shell.enabled=true
            5-field cron       | type=HTTP;target=http://a.test/;trigger.cron=0 0 12 * * | trigger.cron    | '0 0 12 * *' has 5 fields; AX cron starts with seconds: '0 0 0 12 * ?'
            both day fields    | type=HTTP;target=http://a.test/;trigger.cron=0 0 12 * * * | trigger.cron  | put '?' in day-of-month
            never fires        | type=HTTP;target=http://a.test/;trigger.cron=0 0 0 30 2 ? | trigger.cron  | it can never fire
            two triggers       | type=HTTP;target=http://a.test/;trigger.cron=@daily;trigger.fixed-rate=5s | trigger.fixed-rate | set only one trigger, found trigger.cron and trigger.fixed-rate
            bad duration       | type=HTTP;target=http://a.test/;trigger.fixed-delay=soon | trigger.fixed-delay | 'soon' is not a duration
            zone without cron  | type=HTTP;target=http://a.test/;trigger.zone=UTC | trigger.zone         | a zone applies only to a cron trigger
            bad retry          | type=HTTP;target=http://a.test/;retry.times=many | retry.times          | 'many' is not a number
            bad timeout        | type=HTTP;target=http://a.test/;timeout=-1s      | timeout              | must be positive
            bad group          | type=HTTP;target=http://a.test/;group=a b        | group                | must be 1-64 characters
            bad priority       | type=HTTP;target=http://a.test/;priority=5000    | priority             | must be between -1000 and 1000, was 5000
            bad HTTP method    | type=HTTP;target=http://a.test/;params.method=GET /x | params.method    | is not an HTTP method
            LOCAL without bean | type=LOCAL;target=nobody.run                     | target               | there is no bean named 'nobody'
            LOCAL not bean.method | type=LOCAL;target=run                         | target               | is not beanName.methodName
            """)
    void aBadDefinitionFailsStartUpNamingTheTaskThePropertyAndTheReason(
            String what, String properties, String attribute, String reason) {
        String[] values = properties.split(";");
        for (int i = 0; i < values.length; i++) {
            values[i] = "ax.tasks.bad." + values[i];
        }
        runner.withPropertyValues("ax.http.allowed-urls=http://a.test/")
                .withPropertyValues("ax.tasks.bad.timeout=5s")
                .withPropertyValues(values)
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    while (!(failure instanceof InvalidJobDefinitionException) && failure.getCause() != null) {
                        failure = failure.getCause();
                    }
                    assertThat(failure)
                            .isInstanceOf(InvalidJobDefinitionException.class)
                            .hasMessageStartingWith("Invalid task ax.tasks.bad: attribute '" + attribute + "': ")
                            .hasMessageContaining(reason);
                    InvalidJobDefinitionException invalid = (InvalidJobDefinitionException) failure;
                    assertThat(invalid.attribute()).isEqualTo(attribute);
                    assertThat(invalid.method()).isNull();
                    assertThat(new InvalidJobDefinitionFailureAnalyzer()
                                    .analyze(failure)
                                    .getAction())
                            .isEqualTo("Fix property ax.tasks.bad." + attribute + ".");
                });
    }

    @Test
    void aConfiguredTaskMayNotTakeTheNameOfAnAnnotatedOne() {
        runner.withUserConfiguration(AnnotatedJobs.class)
                .withPropertyValues(
                        "ax.tasks.annotated.type=LOCAL",
                        "ax.tasks.annotated.target=configuredTasksTest.AnnotatedJobs.plain",
                        "ax.tasks.annotated.timeout=5s")
                .run(context -> assertThat(context)
                        .getFailure()
                        .isInstanceOf(InvalidJobDefinitionException.class)
                        .hasMessageContaining("Invalid task ax.tasks.annotated: attribute 'name': the name"
                                + " 'annotated' is already used by @AxJob on"));
    }

    @Test
    void anAxJobWithACronThatCanNeverFireFailsStartUp() {
        runner.withUserConfiguration(NeverJob.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .isInstanceOf(InvalidJobDefinitionException.class)
                        .hasMessageContaining("attribute 'cron'")
                        .hasMessageContaining("it can never fire"));
    }

    @Test
    void anOnDemandConfiguredTaskHasNoTrigger() {
        runner.withPropertyValues(
                        "ax.http.allowed-urls=http://a.test/",
                        "ax.tasks.poke.type=HTTP",
                        "ax.tasks.poke.target=http://a.test/poke",
                        "ax.tasks.poke.timeout=5s")
                .run(context -> assertThat(task(context, "poke").trigger()).isEqualTo(OnDemandTrigger.INSTANCE));
    }

    private static AxTask task(AssertableApplicationContext context, String name) {
        return context.getBean(AxEngine.class).task(name).orElseThrow();
    }

    @Configuration(proxyBeanMethods = false)
    static class Greeter {
        final List<String> greeted = new CopyOnWriteArrayList<>();

        void greet(AxContext context) {
            greeted.add(context.params().get("who"));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PigeonPost implements AxExecutor {
        final List<String> sent = new CopyOnWriteArrayList<>();

        @Override
        public boolean matchTaskType(String type) {
            return "PIGEON".equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            sent.add(task.target());
            return AxResult.success("flown");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class AnnotatedJobs {
        @AxJob(
                name = "annotated",
                timeout = "5s",
                durability = Durability.MEMORY,
                params = {"region=${region:us}", "size=10"})
        void annotated() {}

        @AxJob(name = "annotatedOwn", timeout = "5s", retry = @AxJob.Retry(times = "2"))
        void annotatedOwn() {}

        void plain() {}
    }

    @Configuration(proxyBeanMethods = false)
    static class NeverJob {
        @AxJob(name = "never", cron = "0 0 0 30 2 ?", timeout = "5s")
        void never() {}
    }

    @Configuration(proxyBeanMethods = false)
    static class Pager {
        static final List<DeadLetter> PAGED = new CopyOnWriteArrayList<>();
        static final AxDeadLetterHandler HANDLER = PAGED::add;

        @Bean
        AxDeadLetterHandler pagingHandler() {
            return HANDLER;
        }

        void fail() {
            throw new IllegalStateException("down");
        }
    }
}
