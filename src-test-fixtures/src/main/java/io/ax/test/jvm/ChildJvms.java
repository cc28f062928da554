package io.ax.test.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The application nodes of crash tests: each a JVM of its own on the calling test's class path, its output in
 * {@code target/<name>.log}, killed with SIGKILL (no shutdown hook, no graceful stop) and never left running.
 */
public class ChildJvms implements AutoCloseable {

    private final List<Process> processes = new ArrayList<>();

    /**
     * Starts {@code main} with {@code args} in a JVM of its own.
     *
     * @param name names the log file, {@code target/<name>.log}
     * @param maxHeap the JVM's {@code -Xmx}, e.g. {@code 256m}
     * @param main the class whose {@code main} runs
     * @param args its arguments
     * @return the running process, stopped by {@link #close()} at the latest
     * @throws IOException when the JVM cannot be started
     */
    public Process start(String name, String maxHeap, Class<?> main, List<String> args) throws IOException {
        Path log = Path.of("target", name + ".log");
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + maxHeap,
                // a node of a test lives for seconds: the quick compiler and one GC thread halve the CPU its start
                // takes from the test, the database and the other nodes on a machine of two cores
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
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

    /**
     * SIGKILL, and wait until the process is gone.
     *
     * @param process the node
     * @throws InterruptedException when interrupted while waiting
     */
    public static void kill(Process process) throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * SIGSTOP: the process freezes, as in a long GC pause, with its sockets open.
     *
     * @param process the node
     * @throws IOException when {@code kill} cannot be run
     * @throws InterruptedException when interrupted while waiting for it
     */
    public static void freeze(Process process) throws IOException, InterruptedException {
        signal(process, "STOP");
    }

    /**
     * SIGCONT: a frozen process goes on where it stopped.
     *
     * @param process the node
     * @throws IOException when {@code kill} cannot be run
     * @throws InterruptedException when interrupted while waiting for it
     */
    public static void thaw(Process process) throws IOException, InterruptedException {
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
     * Kills every process this started that still runs, and waits until they are gone: a check that reads the
     * database afterwards must not see a node's last writes land between two of its queries.
     */
    @Override
    public void close() {
        processes.forEach(Process::destroyForcibly);
        for (Process process : processes) {
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("node " + process.pid() + " still runs 30 s after SIGKILL");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the nodes to end", e);
            }
        }
    }
}
