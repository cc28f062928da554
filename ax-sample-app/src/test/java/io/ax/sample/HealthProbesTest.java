package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.test.jdbc.TestDatabase;
import io.ax.test.net.FaultProxy;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sample's health over HTTP while its database does not answer (a partition: packets are dropped, and its pool
 * keeps HikariCP's 30 s connection timeout): every probe answers within a second, the {@code ax} component and the
 * readiness group say DOWN with the cause, the liveness group stays UP, and both are UP again once the database is
 * back.
 */
class HealthProbesTest {

    private static final String PREFIX = "axprobe_";
    private static final Duration BOUND = Duration.ofSeconds(90);
    /** Kubernetes' default probe timeout. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    /** How long the database stays cut: longer than the lease, so the node is cut off by every measure. */
    private static final Duration CUT = Duration.ofSeconds(8);

    private final ChildJvms jvms = new ChildJvms();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
    private FaultProxy proxy;
    private int port;

    @AfterEach
    void stopAll() {
        jvms.close();
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void probesAnswerWithinASecondDuringACutReadinessGoesDownAndLivenessStaysUp() throws Exception {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        pg.dataSource(); // skips (or fails, when required) without PostgreSQL
        pg.dropTables(PREFIX);
        proxy = FaultProxy.start("127.0.0.1", 5432);
        port = freePort();
        jvms.start(
                "health-probes",
                "256m",
                SampleApplication.class,
                List.of(
                        "--spring.profiles.active=postgres,no-demo-tasks",
                        "--spring.datasource.url=jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + pg.databaseName(),
                        "--spring.datasource.username=" + pg.user(),
                        "--spring.datasource.password=" + pg.password(),
                        "--ax.jdbc.table-prefix=" + PREFIX,
                        "--ax.node-id=probed",
                        "--ax.cluster.heartbeat=500ms",
                        "--ax.cluster.lease=2s",
                        "--ax.cluster.ack-timeout=1s",
                        "--ax.cluster.poll-interval=200ms",
                        "--server.port=" + port,
                        "--sample.tick.rate=200ms"));
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> status("/actuator/health/readiness") == 200);
        assertThat(status("/actuator/health/liveness")).isEqualTo(200);
        assertThat(status("/actuator/health")).isEqualTo(200);

        proxy.blackhole();
        long from = System.nanoTime();
        List<String> slow = new ArrayList<>();
        AtomicBoolean readinessDown = new AtomicBoolean();
        AtomicReference<String> whileCut = new AtomicReference<>();
        // the cut lasts CUT: this await only paces the probes (four a second) and measures time
        await().atMost(CUT.plusSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> {
            probe(slow, readinessDown, whileCut);
            return System.nanoTime() - from >= CUT.toNanos();
        });
        assertThat(slow)
                .as("probes slower than a probe's timeout during the cut")
                .isEmpty();
        assertThat(readinessDown).as("readiness went DOWN during the cut").isTrue();
        assertThat(whileCut.get())
                .as("the health during the cut")
                .isNotNull()
                .contains("\"store\":\"unreachable for")
                .contains("\"storeError\":");

        proxy.pass();
        await().atMost(BOUND)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> status("/actuator/health/readiness") == 200);
        assertThat(status("/actuator/health/liveness")).isEqualTo(200);
    }

    /** One probe of each: the root, readiness and liveness; what was slow, and what they said. */
    private void probe(List<String> slow, AtomicBoolean readinessDown, AtomicReference<String> whileCut) {
        for (String path : List.of("/actuator/health", "/actuator/health/readiness", "/actuator/health/liveness")) {
            long asked = System.nanoTime();
            HttpResponse<String> answer = get(path);
            Duration took = Duration.ofNanos(System.nanoTime() - asked);
            if (answer == null) {
                slow.add(path + " gave no answer within " + PROBE_TIMEOUT);
                continue;
            }
            if (took.compareTo(PROBE_TIMEOUT) > 0) {
                slow.add(path + " took " + took.toMillis() + " ms");
            }
            if (path.endsWith("liveness")) {
                assertThat(answer.statusCode())
                        .as("liveness during the cut: %s", answer.body())
                        .isEqualTo(200);
            } else if (path.endsWith("readiness") && answer.statusCode() == 503) {
                readinessDown.set(true);
            } else if (path.equals("/actuator/health") && answer.statusCode() == 503) {
                whileCut.set(answer.body());
            }
        }
    }

    private int status(String path) {
        HttpResponse<String> answer = get(path);
        return answer == null ? -1 : answer.statusCode();
    }

    /** The answer, or null when none came within the probe timeout. */
    private HttpResponse<String> get(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(PROBE_TIMEOUT)
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (java.net.http.HttpTimeoutException e) {
            return null;
        } catch (IOException e) {
            return null; // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
