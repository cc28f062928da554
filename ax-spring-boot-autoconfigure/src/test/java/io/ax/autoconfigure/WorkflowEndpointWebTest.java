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

/**
 * Over HTTP, on a JDBC store (embedded H2): {@code /actuator/ax/workflows} (the graph and the state of its runs), and
 * a trigger carrying parameters for its run.
 */
@SpringBootTest(
        classes = WorkflowEndpointWebTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=ax",
            "management.endpoint.ax.access=unrestricted",
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

    @Test
    void aTriggerMayCarryParametersTheTaskDeclares() throws Exception {
        Http.Answer bad = postJson("/actuator/ax/tasks/greet", "{\"params\": \"nmae=Ada\"}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.<String>read("$.message")).contains("the task has no parameter 'nmae'");
        assertThat(postJson("/actuator/ax/tasks/greet", "{\"params\": \"no pair\"}")
                        .status())
                .isEqualTo(400);
        assertThat(postJson("/actuator/ax/tasks/nope", "{\"params\": \"name=x\"}")
                        .status())
                .isEqualTo(404);

        Http.Answer ok = postJson("/actuator/ax/tasks/greet", "{\"params\": \"name=Ada%20Lovelace\"}");
        assertThat(ok.status()).isEqualTo(200);
        await().atMost(BOUND).until(() -> steps.greeted.contains("Ada Lovelace"));
        assertThat(new Http(port).post("/actuator/ax/tasks/greet/trigger").status())
                .isEqualTo(200);
        await().atMost(BOUND).until(() -> steps.greeted.contains("world"));
    }

    private Http.Answer postJson(String path, String json) throws Exception {
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                                .header("Content-Type", "application/json")
                                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(json))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        return new Http.Answer(response.statusCode(), response.body());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Steps.class)
    static class App {}

    static class Steps {
        final Set<String> runIds = ConcurrentHashMap.newKeySet();
        final Set<String> done = ConcurrentHashMap.newKeySet();
        final Set<String> greeted = ConcurrentHashMap.newKeySet();

        @AxJob(name = "greet", params = "name=world", timeout = "5s")
        void greet(AxContext context) {
            greeted.add(context.params().get("name"));
        }

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
