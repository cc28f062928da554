package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.test.jdbc.TestDatabase;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The sample started as a newcomer starts it, from a folder that is not its own: its scripts are found and its H2
 * file goes to its own folder (or {@code AX_SAMPLE_HOME}), nothing is left where it was started; under the {@code
 * postgres} profile it uses a database of its own, created when missing.
 */
class SampleFromAnyFolderTest {

    private static final Duration BOUND = Duration.ofSeconds(90);

    @TempDir
    Path elsewhere;

    @TempDir
    Path home;

    private Process process;

    @AfterEach
    void stop() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void startedFromAnotherFolderItFindsItsScriptsAndLeavesNoDataThere() throws Exception {
        // its own H2 file is left alone here (another test of the suite may hold it): a file of this test's
        Path db = elsewhere.resolve("db").resolve("ax-sample");
        Path log = start(Map.of(), "--spring.datasource.url=jdbc:h2:file:" + db + ";DB_CLOSE_ON_EXIT=FALSE");
        awaitStarted(log);
        assertThat(Files.exists(elsewhere.resolve("data")))
                .as("a data/ folder where it was started")
                .isFalse();
        assertThat(Files.readString(log)).doesNotContain("ax.shell.script-dir");
    }

    @Test
    void withAxSampleHomeItsDataGoesThere() throws Exception {
        Path scripts = Files.createDirectories(home.resolve("scripts"));
        Files.copy(Path.of("scripts", "disk-report.sh"), scripts.resolve("disk-report.sh"));
        Path log = start(Map.of("AX_SAMPLE_HOME", home.toString()));
        awaitStarted(log);
        assertThat(Files.exists(home.resolve("data").resolve("ax-sample.mv.db")))
                .isTrue();
        assertThat(Files.exists(elsewhere.resolve("data"))).isFalse();
    }

    @Test
    void underThePostgresProfileItsDatabaseIsCreatedWhenMissing() {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        JdbcTemplate admin = new JdbcTemplate(pg.dataSource()); // skips (or fails, when required) without PostgreSQL
        String name = "ax_sample_t" + System.nanoTime();
        String url = pg.url().replaceFirst("/[A-Za-z0-9_]+(\\?|$)", "/" + name + "$1");
        try {
            SampleDatabase.createIfMissing(url, pg.user(), pg.password());
            assertThat(admin.queryForObject("SELECT COUNT(*) FROM pg_database WHERE datname = ?", Integer.class, name))
                    .isOne();
            SampleDatabase.createIfMissing(url, pg.user(), pg.password()); // there now: nothing to do
        } finally {
            admin.execute("DROP DATABASE IF EXISTS " + name);
        }
    }

    /** Starts the sample's main in a JVM of its own, in the other folder; its output goes to a log there. */
    private Path start(Map<String, String> environment, String... args) throws IOException {
        Path log = elsewhere.resolve("sample.log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1", // the quick compiler: the sample lives for seconds here
                "-cp",
                classPathFromHere(),
                SampleApplication.class.getName(),
                "--server.port=" + freePort()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(elsewhere.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("AX_SAMPLE_HOME");
        builder.environment().remove("AX_SAMPLE_SCRIPTS");
        builder.environment().putAll(environment);
        process = builder.start();
        return log;
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The test's class path with every entry absolute: the child runs in another folder. */
    private static String classPathFromHere() {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            entries.add(Path.of(entry).toAbsolutePath().toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    private void awaitStarted(Path log) {
        await().atMost(BOUND).pollInterval(Duration.ofMillis(200)).until(() -> {
            String out = Files.exists(log) ? Files.readString(log) : "";
            assertThat(out).as("the sample's output").doesNotContain("APPLICATION FAILED TO START");
            assertThat(process.isAlive())
                    .as("the sample runs; its output:\n" + out)
                    .isTrue();
            return out.contains("Started SampleApplication");
        });
    }
}
