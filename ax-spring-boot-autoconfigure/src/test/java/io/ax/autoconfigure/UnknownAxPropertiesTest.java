package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.FileSystemResource;

/** Keys under ax. that no setting reads: one WARN at start-up with the nearest known name, or a failed start-up. */
@ExtendWith(OutputCaptureExtension.class)
class UnknownAxPropertiesTest {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class));

    @Test
    void unknownKeysAreReportedInOneWarnEachWithTheNearestKnownName(CapturedOutput output) {
        runner.withPropertyValues(
                        "ax.defualt-zone=Europe/Berlin",
                        "ax.pool.default.threads=2",
                        "ax.pools.reports.thread=2",
                        "ax.clusterr.lease=20s",
                        "ax.something-else-entirely=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    String warn = warnOf(output);
                    assertThat(warn)
                            .contains("ax.defualt-zone (set in test): did you mean ax.default-zone?")
                            .contains("ax.pool.default.threads (set in test): did you mean ax.pools.default.threads?")
                            .contains("ax.pools.reports.thread (set in test): did you mean ax.pools.reports.threads?")
                            .contains("ax.clusterr.lease (set in test): did you mean ax.cluster.lease?")
                            .contains("ax.something-else-entirely")
                            .doesNotContain("ax.something-else-entirely (set in test): did you mean")
                            .contains("ax.strict-properties=true");
                    assertThat(output.getOut().split("AX does not know", -1))
                            .as("one WARN")
                            .hasSize(2);
                });
    }

    @Test
    void aKeyFromAFileIsReportedWithItsFileAndLine(CapturedOutput output, @TempDir Path folder) throws IOException {
        Path file = folder.resolve("application.properties");
        Files.writeString(file, "ax.default-zone=UTC\nax.defualt-zone=Europe/Berlin\n");
        runner.withInitializer(context -> {
                    try {
                        new PropertiesPropertySourceLoader()
                                .load("application", new FileSystemResource(file))
                                .forEach(context.getEnvironment().getPropertySources()::addFirst);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(warnOf(output))
                            .contains("ax.defualt-zone (set in file [" + file + "] - 2:")
                            .contains("did you mean ax.default-zone?");
                });
    }

    @Test
    void keysThatBindAreNotReportedWhereverTheyAre(CapturedOutput output) {
        runner.withPropertyValues(
                        "ax.default-zone=Europe/Berlin",
                        "ax.pools.reports.threads=2",
                        "ax.pools.reports.queue-capacity=20",
                        "ax.http.allowed-urls[0]=https://example.com/",
                        "ax.http.allowed-urls[1]=https://example.org/",
                        "ax.shell.environment=PATH,HOME",
                        "ax.cluster.lease=20s",
                        "ax.retry.times=3",
                        "ax.clock.jumpThreshold=1s", // relaxed: camel case binds too
                        "ax.tasks.ping.type=HTTP",
                        "ax.tasks.ping.target=https://example.com/ping",
                        "ax.tasks.ping.trigger.fixed-rate=1h",
                        "ax.tasks.ping.params.region=eu",
                        "ax.http.allowed-urls[2]=https://example.net/")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output.getOut()).doesNotContain("AX does not know");
                });
    }

    @Test
    void aKeyBelowATaskIsCheckedAgainstWhatATaskHas(CapturedOutput output) {
        runner.withPropertyValues(
                        "ax.http.allowed-urls=https://example.com/",
                        "ax.tasks.ping.type=HTTP",
                        "ax.tasks.ping.target=https://example.com/ping",
                        "ax.tasks.ping.trigger.fixed-rate=1h",
                        "ax.tasks.ping.fixed-delay=1h",
                        "ax.tasks.ping.timout=5s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(warnOf(output))
                            .contains("ax.tasks.ping.fixed-delay (set in test): did you mean"
                                    + " ax.tasks.ping.trigger.fixed-delay?")
                            .contains("ax.tasks.ping.timout (set in test): did you mean ax.tasks.ping.timeout?");
                });
    }

    @Test
    void environmentVariablesAreNotChecked(CapturedOutput output) {
        runner.withInitializer(c -> c.getEnvironment()
                        .getPropertySources()
                        .addFirst(new SystemEnvironmentPropertySource(
                                "test-environment", Map.of("AX_DEFAULT_ZONE", "UTC", "AX_TEST_SERVICES", "required"))))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output.getOut()).doesNotContain("AX does not know");
                });
    }

    @Test
    void strictPropertiesStopStartUpWithOneMessageAndTheFix() {
        runner.withPropertyValues("ax.strict-properties=true", "ax.defualt-zone=UTC", "ax.pool.default.threads=2")
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    while (!(failure instanceof UnknownAxPropertiesException) && failure.getCause() != null) {
                        failure = failure.getCause();
                    }
                    assertThat(failure).isInstanceOf(UnknownAxPropertiesException.class);
                    assertThat(((UnknownAxPropertiesException) failure).names())
                            .containsExactly("ax.defualt-zone", "ax.pool.default.threads");
                    FailureAnalysis analysis =
                            new UnknownAxPropertiesFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription())
                            .startsWith("AX does not know these properties")
                            .contains("ax.defualt-zone (set in test): did you mean ax.default-zone?");
                    assertThat(analysis.getAction()).contains("ax.strict-properties=false");
                });
    }

    @Test
    void theNearestNameIsOnlySuggestedWhenItIsNear() {
        List<String> known = List.of(
                "ax.enabled", "ax.cluster.lease", "ax.pools.*.threads", "ax.default-zone", "ax.tasks.*.trigger.cron");
        assertThat(UnknownAxProperties.nearest("ax.enabeld", known)).isEqualTo("ax.enabled");
        assertThat(UnknownAxProperties.nearest("ax.pools.etl.treads", known)).isEqualTo("ax.pools.etl.threads");
        assertThat(UnknownAxProperties.nearest("ax.tasks.nightly.cron", known))
                .isEqualTo("ax.tasks.nightly.trigger.cron");
        assertThat(UnknownAxProperties.nearest("ax.zone", known)).isNull();
        assertThat(UnknownAxProperties.nearest("ax.cluster.store", known)).isNull();
    }

    private static String warnOf(CapturedOutput output) {
        String out = output.getOut();
        int at = out.indexOf("AX does not know");
        assertThat(at).as("the WARN in:\n" + out).isNotNegative();
        return out.substring(at);
    }
}
