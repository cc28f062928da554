package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxJob;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/** {@code /actuator/ax/workflows} over HTTP, on a JDBC store (embedded H2): the graph and the state of its runs. */
@SpringBootTest(
        classes = WorkflowEndpointWebTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=ax",
            "spring.datasource.url=jdbc:h2:mem:ax-workflow-web;DB_CLOSE_DELAY=-1"
        })
class WorkflowEndpointWebTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @LocalServerPort
    int port;

    @Autowired
    Steps steps;

    @Test
    void showsEachWorkflowAsNodesAndEdgesWithTheStateOfItsRuns() {
        Http http = new Http(port);
        Http.Answer triggered = http.post("/actuator/ax/tasks/fetch/trigger");
        assertThat(triggered.status()).isEqualTo(200);
        String runId = triggered.read("$.instanceId");

        await().atMost(BOUND).until(() -> steps.runIds.contains(runId) && steps.done.contains("publish"));
        await().atMost(BOUND).untilAsserted(() -> {
            Http.Answer answer = http.get("/actuator/ax/workflows");
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.<String>read("$.workflows[0].root")).isEqualTo("fetch");
            assertThat(answer.<List<String>>read("$.workflows[0].nodes"))
                    .containsExactly("fetch", "check", "resize", "publish");
            assertThat(answer.<List<Map<String, String>>>read("$.workflows[0].edges"))
                    .containsExactlyInAnyOrder(
                            Map.of("from", "fetch", "to", "check"),
                            Map.of("from", "fetch", "to", "resize"),
                            Map.of("from", "check", "to", "publish"),
                            Map.of("from", "resize", "to", "publish"));
            assertThat(answer.<String>read("$.workflows[0].runs[0].runId")).isEqualTo(runId);
            assertThat(answer.<String>read("$.workflows[0].runs[0].state")).isEqualTo("succeeded");
            assertThat(answer.<Map<String, String>>read("$.workflows[0].runs[0].steps"))
                    .containsOnly(
                            Map.entry("fetch", "SUCCESS"),
                            Map.entry("check", "SUCCESS"),
                            Map.entry("resize", "SUCCESS"),
                            Map.entry("publish", "SUCCESS"));
        });
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Steps.class)
    static class App {}

    static class Steps {
        final Set<String> runIds = ConcurrentHashMap.newKeySet();
        final Set<String> done = ConcurrentHashMap.newKeySet();

        @AxJob(name = "fetch", timeout = "5s")
        void fetch(AxContext context) {
            step(context);
        }

        @AxJob(name = "check", dependsOn = "fetch", timeout = "5s")
        void check(AxContext context) {
            step(context);
        }

        @AxJob(name = "resize", dependsOn = "fetch", timeout = "5s")
        void resize(AxContext context) {
            step(context);
        }

        @AxJob(
                name = "publish",
                dependsOn = {"check", "resize"},
                timeout = "5s")
        void publish(AxContext context) {
            step(context);
        }

        private void step(AxContext context) {
            runIds.add(context.runId());
            done.add(context.taskName());
        }
    }
}
