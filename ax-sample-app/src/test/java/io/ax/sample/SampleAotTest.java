package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplicationAotProcessor;

/**
 * The sample after Spring Boot's ahead-of-time processing, as {@code spring-boot:process-aot} does it: the processor
 * writes the application context as code and the hints of what is reached by reflection (AX's {@code @AxJob}
 * methods among them); that code is compiled; and the sample runs on the JVM with {@code -Dspring.aot.enabled=true},
 * its beans from the generated code alone. It must start as AOT-processed, register its tasks and run them.
 */
class SampleAotTest {

    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final Path OUT = Path.of("target", "aot-test");

    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : processes) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theAotProcessedSampleStartsRegistersItsTasksAndRunsThem() throws Exception {
        clean(OUT);
        Path sources = Files.createDirectories(OUT.resolve("sources"));
        Path resources = Files.createDirectories(OUT.resolve("resources"));
        Path classes = Files.createDirectories(OUT.resolve("classes"));
        // the application's class path, as the Maven goal has it: not this module's test classes, which a component
        // scan of io.ax.sample would find (the crash tests' applications)
        String classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).endsWith(Path.of("target", "test-classes")))
                .collect(java.util.stream.Collectors.joining(File.pathSeparator));

        // 1. the processing, in a JVM of its own as the Maven goal runs it
        Process processing = start(
                "aot-process",
                classPath,
                List.of(),
                SpringApplicationAotProcessor.class.getName(),
                List.of(
                        SampleApplication.class.getName(),
                        sources.toString(),
                        resources.toString(),
                        classes.toString(),
                        "io.ax",
                        "ax-sample-app",
                        "--spring.datasource.url=jdbc:h2:mem:sample-aot-processing"));
        assertThat(processing.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS))
                .as("the processing ends in time")
                .isTrue();
        assertThat(processing.exitValue())
                .as("the processing succeeds; see target/aot-process.log")
                .isZero();
        assertThat(hints(resources))
                .as("the hints name the sample's @AxJob class")
                .contains("io.ax.sample.SampleJobs");

        // 2. the generated code, compiled
        List<String> generated;
        try (Stream<Path> files = Files.walk(sources)) {
            generated = files.filter(f -> f.toString().endsWith(".java"))
                    .map(Path::toString)
                    .toList();
        }
        assertThat(generated).as("generated sources").isNotEmpty();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of(
                "--release",
                "17",
                "-proc:none",
                "-nowarn",
                "-d",
                classes.toString(),
                "-cp",
                classes + File.pathSeparator + classPath)); // with the proxies the processor generated
        args.addAll(generated);
        assertThat(javac.run(null, null, null, args.toArray(String[]::new)))
                .as("the generated code compiles")
                .isZero();

        // 3. the sample, from the generated code
        start(
                "aot-run",
                classes + File.pathSeparator + resources + File.pathSeparator + classPath,
                List.of("-Dspring.aot.enabled=true"),
                SampleApplication.class.getName(),
                List.of(
                        "--server.port=0",
                        "--spring.datasource.url=jdbc:h2:mem:sample-aot-run",
                        "--sample.heartbeat.cron=* * * * * ?"));
        await().atMost(BOUND).pollInterval(Duration.ofMillis(200)).until(() -> {
            String text = read(Path.of("target", "aot-run.log"));
            // the engine logs its start line last, after its first fires may already have run: wait for both
            return text.contains("heartbeat for") && text.contains("AX engine started")
                    || text.contains("APPLICATION FAILED TO START");
        });
        String text = read(Path.of("target", "aot-run.log"));
        assertThat(text)
                .contains("Starting AOT-processed SampleApplication")
                .contains("AX engine started")
                .contains("heartbeat for")
                .doesNotContain("APPLICATION FAILED TO START");
    }

    private Process start(String name, String classPath, List<String> jvmArgs, String main, List<String> args)
            throws IOException {
        Path log = Path.of("target", name + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx384m");
        command.add("-XX:TieredStopAtLevel=1"); // the quick compiler: these JVMs live for seconds
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(classPath);
        command.add(main);
        command.addAll(args);
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        processes.add(process);
        return process;
    }

    private static String hints(Path resources) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(resources)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                all.append(Files.readString(f));
            }
        }
        return all.toString();
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }

    private static void clean(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }
}
