package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
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
                        new String[] {"ax.retry.times=-1"}, "ax.retry", "retry times must be >= 0", "ax.retry.times"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badSettings")
    void badSettingsFailStartUpWithOneMessageAndTheFix(
            String[] properties, String settings, String reason, String fix) {
        runner.withPropertyValues(properties).run(context -> {
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
