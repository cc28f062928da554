package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.engine.AxEngine;
import io.ax.executor.HttpExecutor;
import io.ax.executor.ShellExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The sample's configured tasks: an HTTP call to its own health endpoint and a shipped shell script. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT,
        properties = "spring.datasource.url=jdbc:h2:mem:sample-executors;DB_CLOSE_DELAY=-1")
class SampleExecutorsTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final int PORT = freePort();

    @DynamicPropertySource
    static void port(DynamicPropertyRegistry registry) {
        registry.add("server.port", () -> PORT);
    }

    @Autowired
    AxEngine engine;

    @Test
    void theHttpTaskCallsTheSamplesOwnHealthEndpoint() {
        AxTask task = engine.task("self-check").orElseThrow();
        assertThat(task.type()).isEqualTo(HttpExecutor.TYPE);
        assertThat(task.target()).isEqualTo("http://127.0.0.1:" + PORT + "/actuator/health");
        assertThat(task.params()).containsEntry("header.X-Ax-Instance", "${instanceId}");

        String id = engine.triggerNow("self-check");

        assertThat(lastReason(id)).matches("HTTP 200 in \\d+ ms; body \\(\\d+ bytes\\): \\{.*\"status\":\"UP\".*");
    }

    @Test
    void theShellTaskRunsTheShippedScriptWithItsArgument() {
        assertThat(engine.task("disk-report").orElseThrow().type()).isEqualTo(ShellExecutor.TYPE);

        String id = engine.triggerNow("disk-report");

        assertThat(lastReason(id))
                .startsWith("exit 0 in ")
                .contains("report for 'sample data' by disk-report, instance " + id + ", attempt 1");
    }

    private String lastReason(String id) {
        await().atMost(BOUND)
                .until(() ->
                        engine.find(id).map(d -> d.instance().state().isFinal()).orElse(false));
        List<AuditEntry> trail = engine.find(id).orElseThrow().auditTrail();
        AuditEntry last = trail.get(trail.size() - 1);
        assertThat(last.to()).as(last.reason()).isEqualTo(InstanceState.SUCCESS);
        return last.reason();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
