package io.ax.faults.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of one node: a JVM of the sample application. Signals go to its pid: SIGKILL (no shutdown hook, as a crash),
 * SIGSTOP and SIGCONT (frozen with its sockets open, as in a long pause), SIGTERM (a graceful stop). Thread-safe.
 */
final class NodeProcess {

    private static final Duration SIGNAL_WAIT = Duration.ofSeconds(10);

    private final Process process;
    private final int httpPort;

    NodeProcess(Process process, int httpPort) {
        this.process = process;
        this.httpPort = httpPort;
    }

    long pid() {
        return process.pid();
    }

    int httpPort() {
        return httpPort;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Process process() {
        return process;
    }

    /** SIGKILL, and waits until the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(SIGNAL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("node process " + pid() + " survived SIGKILL for " + SIGNAL_WAIT);
        }
    }

    /** SIGTERM, and waits up to {@code bound} for the exit; false when it did not exit in time. */
    boolean terminate(Duration bound) throws InterruptedException {
        process.destroy();
        return process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    void freeze() throws InterruptedException {
        signal("STOP");
    }

    void thaw() throws InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        try {
            Process kill = new ProcessBuilder(List.of("kill", "-" + signal, Long.toString(pid())))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!kill.waitFor(SIGNAL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill -" + signal + " " + pid() + " did not return");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot send SIG" + signal + " to " + pid(), e);
        }
    }
}
