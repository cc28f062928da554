package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxJob;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.test.store.PlainStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The {@code ax} health component over HTTP: UP, DOWN when the store fails, the backlog status. */
@SpringBootTest(
        classes = AxHealthWebTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=ax,health",
            "management.endpoint.ax.access=unrestricted",
            "management.endpoint.health.show-details=always",
            "ax.node-id=health-node",
            "ax.pools.slow.threads=1",
            "ax.pools.slow.queue-capacity=10",
            "ax.health.max-backlog-age=100ms"
        })
class AxHealthWebTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @LocalServerPort
    int port;

    @Autowired
    FailingStore store;

    @Autowired
    Jobs jobs;

    @Autowired
    @Qualifier("axHealthIndicator")
    HealthIndicator health;

    private Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @AfterEach
    void heal() {
        store.failing = false;
        store.release();
        jobs.gate.countDown();
    }

    @Test
    void isUpWhenTheStoreAnswersALeaderIsKnownAndTheClockIsCalm() {
        await().atMost(BOUND).until(() -> http.get("/actuator/health/ax").status() == 200);

        Http.Answer answer = http.get("/actuator/health/ax");

        assertThat(answer.<String>read("$.status")).isEqualTo("UP");
        assertThat(answer.<String>read("$.details.node")).isEqualTo("health-node");
        assertThat(answer.<String>read("$.details.role")).isEqualTo("leader");
        assertThat(answer.<String>read("$.details.leader")).isEqualTo("health-node");
        assertThat(answer.<Map<String, Integer>>read("$.details.backlog")).isEmpty();
        assertThat(answer.<Integer>read("$.details.oldestDueNotStartedMillis")).isZero();
        assertThat(answer.<String>read("$.details.clock")).isEqualTo("ok");
        assertThat(http.get("/actuator/health").<String>read("$.status")).isEqualTo("UP");
    }

    @Test
    void isDownWhenTheStoreDoesNotAnswer() {
        await().atMost(BOUND).until(() -> http.get("/actuator/health/ax").status() == 200);
        store.failing = true;

        // the component asks the store in the background, never on the request's thread: the look after the
        // failure says so
        await().atMost(BOUND).until(() -> http.get("/actuator/health/ax").status() == 503);
        Http.Answer answer = http.get("/actuator/health/ax");
        assertThat(answer.<String>read("$.status")).isEqualTo("DOWN");
        assertThat(answer.<String>read("$.details.store")).startsWith("reads unanswered since");
        assertThat(answer.<String>read("$.details.storeError")).contains("connection refused");
        assertThat(answer.<String>read("$.details.role")).isEqualTo("leader");
        assertThat(http.get("/actuator/health").status()).isEqualTo(503);

        store.failing = false;
        await().atMost(BOUND).until(() -> http.get("/actuator/health/ax").status() == 200);
    }

    @Test
    void answersAtOnceWhileTheStoreHangsAndSaysItDoesNotAnswer() {
        await().atMost(BOUND).until(() -> http.get("/actuator/health/ax").status() == 200);
        store.hang();
        try {
            // a probe during the hang: the component answers from what the engine holds, within 200 ms
            for (int i = 0; i < 5; i++) {
                long from = System.nanoTime();
                health.health(true);
                assertThat(Duration.ofNanos(System.nanoTime() - from)).isLessThan(Duration.ofMillis(200));
            }
            await().atMost(BOUND).until(() -> http.get("/actuator/health/ax").status() == 503);
            long from = System.nanoTime();
            Http.Answer answer = http.get("/actuator/health");
            assertThat(Duration.ofNanos(System.nanoTime() - from)).isLessThan(Duration.ofSeconds(1));
            assertThat(answer.<String>read("$.components.ax.status")).isEqualTo("DOWN");
            assertThat(answer.<String>read("$.components.ax.details.storeError"))
                    .contains("has not answered");
        } finally {
            store.release();
        }
        await().atMost(BOUND).until(() -> http.get("/actuator/health/ax").status() == 200);
    }

    @Test
    void turnsToTheBacklogStatusWhenDueWorkWaitsTooLong() {
        jobs.gate = new CountDownLatch(1);
        http.post("/actuator/ax/tasks/hog/trigger");
        http.post("/actuator/ax/tasks/hog/trigger");

        await().atMost(BOUND)
                .until(() -> "DEGRADED".equals(http.get("/actuator/health/ax").read("$.status")));
        Http.Answer answer = http.get("/actuator/health/ax");
        assertThat(answer.status()).as("DEGRADED maps to 200 unless mapped").isEqualTo(200);
        assertThat(answer.<Integer>read("$.details.backlog.slow")).isEqualTo(1);
        assertThat(answer.<Integer>read("$.details.oldestDueNotStartedMillis")).isGreaterThan(100);
        assertThat(answer.<Integer>read("$.details.maxBacklogAgeMillis")).isEqualTo(100);
        assertThat(http.get("/actuator/health").<String>read("$.status"))
                .as("not in the status order: the overall health stays UP")
                .isEqualTo("UP");

        jobs.gate.countDown();
        await().atMost(BOUND)
                .until(() -> "UP".equals(http.get("/actuator/health/ax").read("$.status")));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Jobs.class)
    static class App {
        @Bean
        FailingStore failingStore() {
            return new FailingStore();
        }

        @Bean
        InstanceStore axStore(FailingStore failing) {
            return failing.store();
        }
    }

    static class Jobs {
        volatile CountDownLatch gate = new CountDownLatch(0);

        @AxJob(name = "hog", group = "slow", concurrent = true, timeout = "30s")
        void hog() throws InterruptedException {
            gate.await(30, TimeUnit.SECONDS);
        }
    }

    /**
     * An in-memory store that can be made to fail like an unreachable database (every call throws) or to hang like
     * one behind a network that drops packets (every call waits until released).
     */
    static final class FailingStore {
        private final InMemoryInstanceStore delegate = new InMemoryInstanceStore();
        volatile boolean failing;
        private volatile CountDownLatch hung = new CountDownLatch(0);

        void hang() {
            hung = new CountDownLatch(1);
        }

        void release() {
            hung.countDown();
        }

        InstanceStore store() {
            return PlainStore.of(delegate, (method, args) -> {
                if (!method.equals("describe")) {
                    hung.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
                }
                if (failing) {
                    throw new IllegalStateException("connection refused");
                }
            });
        }
    }
}
