package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ax.core.engine.PoolSettings;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Pools of virtual threads ({@code ax.pools.<group>.virtual-threads}, or Spring Boot's {@code
 * spring.threads.virtual.enabled}): refused with one message on a JVM before Java 21, and at work on a later one. The
 * build runs on Java 17, so the second part runs {@link VirtualPoolProbe} in a child JVM of Java 21 or later: the
 * one named by {@code AX_TEST_JAVA21_HOME}, else one installed beside the build's own JDK; without one it is skipped
 * and says why.
 */
@ExtendWith(OutputCaptureExtension.class)
class VirtualThreadPoolsTest {

    private static final long BOUND_SECONDS = 120;

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(AxAutoConfiguration.class));

    @Test
    void beforeJava21AVirtualPoolIsOneStartUpMessageNamingTheProperty() {
        assumeTrue(Runtime.version().feature() < 21, "this JVM runs virtual threads");
        runner.withPropertyValues("ax.pools.reports.virtual-threads=true").run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            while (!(failure instanceof InvalidAxSettingsException) && failure.getCause() != null) {
                failure = failure.getCause();
            }
            assertThat(failure).isInstanceOf(InvalidAxSettingsException.class);
            FailureAnalysis analysis = new InvalidAxSettingsFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription())
                    .contains("ax.pools.reports.virtual-threads=true needs Java 21 or later")
                    .contains("Java " + Runtime.version().feature());
            assertThat(analysis.getAction()).contains("remove ax.pools.reports.virtual-threads");
        });
        assertThatThrownBy(() -> new PoolSettings(2, 10, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs Java 21 or later");
    }

    @Test
    void beforeJava21SpringsVirtualThreadsSettingLeavesThePoolsOnPlatformThreads(CapturedOutput output) {
        assumeTrue(Runtime.version().feature() < 21, "this JVM runs virtual threads");
        runner.withPropertyValues("spring.threads.virtual.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(output).contains("AX engine started").doesNotContain("virtual threads in pool(s)");
        });
    }

    @Test
    void onJava21OrLaterAttemptsRunOnVirtualThreadsWithinThePoolsLimitAndTimeoutsInterruptThem() throws Exception {
        Optional<Path> java = laterJava();
        assumeTrue(
                java.isPresent(),
                "no JDK of Java 21 or later: set AX_TEST_JAVA21_HOME, or install one beside this JDK ("
                        + Path.of(System.getProperty("java.home")).getParent() + ")");
        Map<String, String> found = probe(java.get());

        assertThat(found).as("the probe's findings").containsEntry("done", "true");
        assertThat(found.get("slow-ended")).isEqualTo("true");
        assertThat(found.get("slow-runs")).isEqualTo("10");
        assertThat(Integer.parseInt(found.get("most-at-once")))
                .as("attempts at once in a pool of 2 virtual workers")
                .isEqualTo(2);
        assertThat(found.get("workers"))
                .as("the workers, by name, and whether each is virtual")
                .contains("ax-io-1=true")
                .doesNotContain("=false");
        assertThat(found.get("stuck-states"))
                .as("the audit of the attempt that overran")
                .contains("TIMEOUT");
        assertThat(found.get("stuck-interrupted"))
                .as("the overrunning handler was interrupted")
                .isEqualTo("true");
        assertThat(found.get("spring-default-virtual"))
                .as("spring.threads.virtual.enabled puts the default pool on virtual threads")
                .isEqualTo("true");
        assertThat(found.get("spring-plain-virtual"))
                .as("a group with virtual-threads=false stays on platform threads")
                .isEqualTo("false");
    }

    /** Runs the probe on {@code java} with this test's class path; its findings by name. */
    private static Map<String, String> probe(Path java) throws IOException, InterruptedException {
        Path out = Files.createTempFile("ax-virtual-probe", ".out");
        try {
            List<String> command = new ArrayList<>(List.of(
                    java.toString(),
                    "-Xmx256m",
                    "-cp",
                    System.getProperty("java.class.path"),
                    VirtualPoolProbe.class.getName()));
            Process child = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            if (!child.waitFor(BOUND_SECONDS, TimeUnit.SECONDS)) {
                child.destroyForcibly();
                throw new AssertionError("the probe did not end within " + BOUND_SECONDS + " s:\n" + read(out));
            }
            String text = read(out);
            assertThat(child.exitValue())
                    .as("the probe's exit; its output:\n%s", text)
                    .isZero();
            Map<String, String> found = new LinkedHashMap<>();
            for (String line : text.split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0 && line.substring(0, eq).matches("[a-z-]+")) {
                    found.put(line.substring(0, eq), line.substring(eq + 1).trim());
                }
            }
            return found;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** A {@code java} of release 21 or later: the one named by AX_TEST_JAVA21_HOME, else one beside this JDK. */
    static Optional<Path> laterJava() throws IOException {
        String named = System.getenv("AX_TEST_JAVA21_HOME");
        if (named != null && !named.isBlank()) {
            return Optional.of(Path.of(named, "bin", "java"));
        }
        if (Runtime.version().feature() >= 21) {
            return Optional.of(Path.of(System.getProperty("java.home"), "bin", "java"));
        }
        Path jvms = Path.of(System.getProperty("java.home")).toRealPath().getParent();
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(home -> release(home) >= 21)
                    .map(home -> home.resolve("bin").resolve("java"))
                    .filter(Files::isExecutable)
                    .findFirst();
        }
    }

    /** The feature release a JDK's {@code release} file names; 0 when it names none. */
    private static int release(Path home) {
        File file = home.resolve("release").toFile();
        if (!file.isFile()) {
            return 0;
        }
        try {
            for (String line : Files.readAllLines(file.toPath())) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return Integer.parseInt(version.split("[.+-]")[0]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
