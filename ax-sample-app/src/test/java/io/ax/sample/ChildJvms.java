package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.test.jdbc.TestDatabase;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The application nodes of the crash tests: each a JVM of its own on this test's class path, its output in
 * {@code target/<name>.log}, killed with SIGKILL (no shutdown hook, no graceful stop) and never left running.
 */
final class ChildJvms implements AutoCloseable {

    private final List<Process> processes = new ArrayList<>();

    /** Starts {@code main} with {@code args} in a JVM of its own with {@code maxHeap} (e.g. {@code 256m}). */
    Process start(String name, String maxHeap, Class<?> main, List<String> args) throws IOException {
        Path log = Path.of("target", name + ".log");
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + maxHeap,
                "-cp",
                System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(args);
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .directory(new File("."))
                .start();
        processes.add(process);
        return process;
    }

    /** SIGKILL, and wait until the process is gone. */
    static void kill(Process process) throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    /** SIGSTOP: the process freezes, as in a long GC pause, with its sockets open. */
    static void freeze(Process process) throws IOException, InterruptedException {
        signal(process, "STOP");
    }

    /** SIGCONT: a frozen process goes on where it stopped. */
    static void thaw(Process process) throws IOException, InterruptedException {
        signal(process, "CONT");
    }

    private static void signal(Process process, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .inheritIO()
                .start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -" + signal).isZero();
    }

    /**
     * The arguments that start the sample as node {@code nodeId} on {@code pg}, AX's tables under {@code prefix},
     * without its demo tasks and on a free port; {@code more} follow them.
     */
    static List<String> onPostgres(TestDatabase pg, String prefix, String nodeId, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "--spring.profiles.active=postgres,no-demo-tasks",
                "--spring.datasource.url=" + pg.url(),
                "--spring.datasource.username=" + pg.user(),
                "--spring.datasource.password=" + pg.password(),
                "--ax.jdbc.table-prefix=" + prefix,
                "--ax.node-id=" + nodeId,
                "--server.port=0"));
        args.addAll(List.of(more));
        return args;
    }

    /** The state of instance {@code id} in the tables with {@code prefix}. */
    static String state(JdbcTemplate db, String prefix, String id) {
        return db.queryForObject("SELECT state FROM " + prefix + "instance WHERE id = ?", String.class, id);
    }

    /** Instances in the tables with {@code prefix} that meet {@code condition}; 0 before the tables exist. */
    static int count(JdbcTemplate db, String prefix, String condition) {
        try {
            Integer n =
                    db.queryForObject("SELECT COUNT(*) FROM " + prefix + "instance WHERE " + condition, Integer.class);
            return n == null ? 0 : n;
        } catch (org.springframework.jdbc.BadSqlGrammarException notYetCreated) {
            return 0;
        }
    }

    @Override
    public void close() {
        processes.forEach(Process::destroyForcibly);
    }
}
