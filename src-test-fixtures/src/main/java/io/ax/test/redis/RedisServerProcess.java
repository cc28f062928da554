package io.ax.test.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;

/**
 * A private {@code redis-server} on a free port of 127.0.0.1, without persistence, for a test that must kill Redis
 * and start it again ({@link #kill()}, {@link #start()}: the same port, an empty data set). Skips the test when the
 * machine has no redis-server, or fails it under {@code AX_TEST_SERVICES=required}. Not thread-safe: one test drives
 * it.
 */
public final class RedisServerProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);

    private final Path program;
    private final int port;
    private Process process;

    private RedisServerProcess(Path program, int port) {
        this.program = program;
        this.port = port;
    }

    /** Starts a server on a free port and waits until it accepts connections. */
    public static RedisServerProcess startNew() {
        Path program = TestRedis.serverProgram();
        if (program == null) {
            String message = "no redis-server on this machine (apt-get install -y redis-server)";
            if ("required".equalsIgnoreCase(System.getenv("AX_TEST_SERVICES"))) {
                throw new IllegalStateException(message + " and AX_TEST_SERVICES=required");
            }
            Assumptions.abort(message + "; set AX_TEST_SERVICES=required to make this a failure");
        }
        RedisServerProcess server = new RedisServerProcess(program, TestRedis.freePort());
        server.start();
        return server;
    }

    public int port() {
        return port;
    }

    /** Starts the server (again, after {@link #kill()}) and waits until it accepts connections. */
    public void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        try {
            process = new ProcessBuilder(List.of(
                            program.toString(),
                            "--port",
                            Integer.toString(port),
                            "--bind",
                            "127.0.0.1",
                            "--save",
                            "",
                            "--appendonly",
                            "no"))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + program, e);
        }
        Process started = process;
        Awaitility.await("redis-server on port " + port + " accepting connections")
                .atMost(START_TIMEOUT)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    if (!started.isAlive()) {
                        throw new IllegalStateException("redis-server on port " + port + " exited at start");
                    }
                    return accepts();
                });
    }

    /** Kills the server at once ({@code SIGKILL}), as a crash would, and waits until it is gone. */
    public void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            if (!process.waitFor(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("redis-server on port " + port + " did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing redis-server", e);
        }
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        kill();
    }
}
