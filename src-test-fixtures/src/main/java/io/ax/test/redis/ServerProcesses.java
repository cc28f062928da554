package io.ax.test.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;

/**
 * The private {@code redis-server} processes of a set (Sentinel or Cluster): started from a scratch folder under the
 * build's {@code target}, signalled and killed by pid, all stopped at {@link #close()}. Not thread-safe.
 */
final class ServerProcesses implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);

    private final Path program;
    private final Path dir;
    private final List<Process> started = new ArrayList<>();

    private ServerProcesses(Path program, Path dir) {
        this.program = program;
        this.dir = dir;
    }

    /**
     * A scratch folder {@code target/<kind>-<random>} for a new set; skips the test without redis-server, or fails it
     * under {@code AX_TEST_SERVICES=required}.
     */
    static ServerProcesses in(String kind) {
        Path program = TestRedis.serverProgram();
        if (program == null) {
            String message = "no redis-server on this machine (apt-get install -y redis-server)";
            if ("required".equalsIgnoreCase(System.getenv("AX_TEST_SERVICES"))) {
                throw new IllegalStateException(message + " and AX_TEST_SERVICES=required");
            }
            Assumptions.abort(message + "; set AX_TEST_SERVICES=required to make this a failure");
        }
        Path dir = Path.of("target", kind + "-" + UUID.randomUUID().toString().substring(0, 8))
                .toAbsolutePath();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ServerProcesses(program, dir);
    }

    Path dir() {
        return dir;
    }

    /** Writes {@code lines} to the file {@code name} of the scratch folder. */
    Path write(String name, List<String> lines) {
        try {
            return Files.write(dir.resolve(name), lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts {@code redis-server} with {@code args}, its output in {@code <log>.log}, and waits until {@code port}
     * accepts connections.
     */
    Process start(int port, String log, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(program.toString());
        command.addAll(args);
        Process p;
        try {
            p = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve(log + ".log").toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + program, e);
        }
        started.add(p);
        Awaitility.await("redis-server " + log + " on port " + port + " accepting connections")
                .atMost(START_TIMEOUT)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    if (!p.isAlive()) {
                        throw new IllegalStateException("redis-server " + log + " exited at start; see " + dir);
                    }
                    return accepts(port);
                });
        return p;
    }

    /** Sends {@code signal} (STOP, CONT) to {@code p}. */
    static void signal(Process p, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + p.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Kills {@code p} at once ({@code SIGKILL}), as a crash would, and waits until it is gone. */
    static void kill(Process p) {
        p.destroyForcibly();
        try {
            if (!p.waitFor(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("redis-server " + p.pid() + " did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing redis-server", e);
        }
    }

    static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Kills every process started, a stopped one too; the scratch folder stays for a look after a failure. */
    @Override
    public void close() {
        for (Process p : started) {
            if (p.isAlive()) {
                signal(p, "CONT");
                kill(p);
            }
        }
    }
}
