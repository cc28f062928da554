package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.autoconfigure.jdbc.AxJdbcAutoConfiguration;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/** Settings that cannot work stop start-up with one message: which settings, why, and what to set instead. */
@ExtendWith(OutputCaptureExtension.class)
class InvalidAxSettingsTest {

    @TempDir
    static Path folder;

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class));

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of(
                        new String[] {"ax.pools.reports.threads=0"},
                        "ax.pools.reports",
                        "ax.pools.reports.threads must be 1 or more, was 0",
                        "Set ax.pools.reports.threads"),
                Arguments.of(
                        new String[] {"ax.pools.default.queue-capacity=-1"},
                        "ax.pools.default",
                        "ax.pools.default.queue-capacity must be 0 or more, was -1",
                        "Set ax.pools.default.queue-capacity"),
                Arguments.of(
                        new String[] {"ax.cluster.heartbeat=20s"},
                        "ax.cluster",
                        "ax.cluster.lease (PT10S) must be more than twice",
                        "heartbeat 3s, lease 10s"),
                Arguments.of(
                        new String[] {"ax.cluster.partitions=0"},
                        "ax.cluster",
                        "ax.cluster.partitions must be between 1 and 4096, was 0",
                        "ax.cluster.partitions between 1 and 4096 (256)"),
                Arguments.of(
                        new String[] {"ax.retention.batch-size=0"},
                        "ax.retention",
                        "batch-size",
                        "ax.retention.enabled=false"),
                Arguments.of(
                        new String[] {"ax.shell.enabled=true", "ax.shell.script-dir=" + folder.resolve("nowhere")},
                        "ax.shell",
                        "does not exist",
                        "Create the folder"),
                Arguments.of(
                        new String[] {"ax.http.allowed-urls=example.org/api"},
                        "ax.http",
                        "'example.org/api' is not an absolute http or https URL",
                        "ax.http.allowed-urls"),
                Arguments.of(
                        new String[] {"ax.retry.times=-1"}, "ax.retry", "retry times must be >= 0", "ax.retry.times"),
                Arguments.of(
                        new String[] {"ax.misfire.max-catch-up=-1"},
                        "ax.misfire",
                        "ax.misfire.max-catch-up must be 1 or more, was -1",
                        "Set ax.misfire.max-catch-up to the most instances a FIRE_ALL misfire policy creates for the"
                                + " missed fire times of a task (the default is 100)."),
                Arguments.of(
                        new String[] {"ax.misfire.threshold=0s"},
                        "ax.misfire",
                        "ax.misfire.threshold must be positive, was PT0S",
                        "Set ax.misfire.threshold to how late a recurring fire may be before it counts as missed (the"
                                + " default is 5s)."),
                Arguments.of(
                        new String[] {"ax.prefetch.page-size=0"},
                        "ax.prefetch",
                        "ax.prefetch.page-size must be 1 or more, was 0",
                        "Set ax.prefetch.page-size to how many instances one read of the window returns at most (the"
                                + " default is 5000)."),
                Arguments.of(
                        new String[] {"ax.prefetch.window=0s"},
                        "ax.prefetch",
                        "ax.prefetch.window must be positive, was PT0S",
                        "Set ax.prefetch.window to how far ahead the wheel holds PERSISTENT instances (the default is"
                                + " 60s)."),
                Arguments.of(
                        new String[] {"ax.prefetch.max-instances=0"},
                        "ax.prefetch",
                        "ax.prefetch.max-instances must be 1 or more, was 0",
                        "Set ax.prefetch.max-instances to how many loaded instances the wheel holds at most (the"
                                + " default is 100000)."),
                Arguments.of(
                        new String[] {"ax.shutdown.await=-5s"},
                        "ax.shutdown",
                        "ax.shutdown.await must not be negative, was PT-5S",
                        "Set ax.shutdown.await to how long a stop waits for running attempts before it interrupts them,"
                                + " 0s for not at all (the default is 10s)."),
                Arguments.of(
                        new String[] {"ax.shutdown.recent-commits-dir=/dev/null/ax"},
                        "ax.shutdown",
                        "ax.shutdown.recent-commits-dir is not a folder this node can create: /dev/null/ax",
                        "Set ax.shutdown.recent-commits-dir to a folder that every node of this cluster can write"),
                Arguments.of(
                        new String[] {"ax.clock.pause=-1s"},
                        "ax.clock",
                        "ax.clock.pause must not be negative, was PT-1S",
                        "Set ax.clock.pause to how long trigger decisions wait after a clock jump, 0s for not at all"
                                + " (the default is 2s)."),
                Arguments.of(
                        new String[] {"ax.clock.jump-threshold=0s"},
                        "ax.clock",
                        "ax.clock.jump-threshold must be positive, was PT0S",
                        "Set ax.clock.jump-threshold to the largest difference between how far the wall clock and the"
                                + " monotonic clock moved that is not a clock jump (the default is 500ms)."),
                Arguments.of(
                        new String[] {"ax.clock.offset-refresh=0s", h2()},
                        "ax.clock",
                        "ax.clock.offset-refresh must be positive, was PT0S",
                        "Set ax.clock.offset-refresh to how often the offset from the cluster's clock is measured"
                                + " again (the default is 30s)."),
                Arguments.of(
                        new String[] {"ax.dispatch.rejection-backoff=0s"},
                        "ax.dispatch",
                        "ax.dispatch.rejection-backoff must be positive, was PT0S",
                        "Set ax.dispatch.rejection-backoff to how long an instance rejected by a full pool waits"
                                + " before it is dispatched again (the default is 1s)."),
                Arguments.of(
                        new String[] {"ax.wheel.tick=0s"},
                        "ax.wheel",
                        "ax.wheel.tick must be positive, was PT0S",
                        "Set ax.wheel.tick to the resolution of the time wheel (the default is 1ms)."),
                Arguments.of(
                        new String[] {"ax.memory.max-finished-instances=0"},
                        "ax.memory",
                        "ax.memory.max-finished-instances must be 1 or more, was 0",
                        "Set ax.memory.max-finished-instances to how many finished instances (with their audit"
                                + " trails) the in-memory store remembers (the default is 10000)."),
                Arguments.of(
                        new String[] {"ax.jdbc.network-timeout=-1s", h2()},
                        "ax.jdbc",
                        "ax.jdbc.network-timeout must be between 0s and 24d, was PT-1S",
                        "Set ax.jdbc.network-timeout to how long each of AX's statements waits at most for the"
                                + " database's answer, 0s for the driver's own timeout (the default is 10s)."),
                Arguments.of(
                        new String[] {"ax.jdbc.table-prefix=1x", h2()},
                        "ax.jdbc",
                        "ax.jdbc.table-prefix '1x' must be a letter followed by up to 29 letters, digits or"
                                + " underscores",
                        "Set ax.jdbc.table-prefix to a letter followed by up to 29 letters, digits or underscores"
                                + " (the default is ax_)."));
    }

    /** A database of its own for a case: the case then runs with AX's JDBC store. */
    private static String h2() {
        return "spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    }

    private ApplicationContextRunner runnerFor(String[] properties) {
        boolean database = Arrays.stream(properties).anyMatch(p -> p.startsWith("spring.datasource.url="));
        return database
                ? runner.withConfiguration(
                        AutoConfigurations.of(DataSourceAutoConfiguration.class, AxJdbcAutoConfiguration.class))
                : runner;
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badSettings")
    void badSettingsFailStartUpWithOneMessageAndTheFix(
            String[] properties, String settings, String reason, String fix) {
        runnerFor(properties).withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new InvalidAxSettingsFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis)
                    .as("an analysis of " + context.getStartupFailure())
                    .isNotNull();
            assertThat(analysis.getDescription())
                    .startsWith("Invalid AX settings " + settings + ": ")
                    .contains(reason);
            assertThat(analysis.getAction()).contains(fix);
        });
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(AxAutoConfiguration.class)
    static class App {}

    @Test
    void anApplicationShowsTheMessageInSpringBootsFailureReportNotAStackTrace(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(App.class)
                        .web(WebApplicationType.NONE)
                        .properties("ax.pools.default.threads=0", "spring.main.banner-mode=off")
                        .run())
                .hasRootCauseInstanceOf(InvalidAxSettingsException.class);
        assertThat(output.getOut() + output.getErr())
                .contains("APPLICATION FAILED TO START")
                .contains("Description:\n\nInvalid AX settings ax.pools.default: ax.pools.default.threads must be 1"
                        + " or more, was 0")
                .contains("Action:\n\nSet ax.pools.default.threads to the number of attempts");
    }
}
