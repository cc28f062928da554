package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxJob;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.InstanceState;
import io.ax.core.engine.AxEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** {@code GET /actuator/ax/instances?...}: an operator finds instances across tasks by state and time, page by page. */
@SpringBootTest(
        classes = AxEndpointSearchWebTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=ax",
            "management.endpoint.ax.access=unrestricted",
            "spring.datasource.url=jdbc:h2:mem:ax-endpoint-search;DB_CLOSE_DELAY=-1"
        })
class AxEndpointSearchWebTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    @LocalServerPort
    int port;

    @Autowired
    AxEngine engine;

    private Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void theDeadAreFoundByStateAcrossStoresAndTasks() {
        String durable = deadInstance("doomed");
        String inMemory = deadInstance("fleeting");

        Http.Answer answer = http.get("/actuator/ax/instances?state=DEAD&size=200");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.<List<String>>read("$.instances[*].id")).contains(durable, inMemory);
        assertThat(answer.<List<String>>read("$.instances[*].state")).containsOnly("DEAD");
        assertThat(http.get("/actuator/ax/instances?state=dead&task=fleeting")
                        .<List<String>>read("$.instances[*].task"))
                .as("a state in any case, a task by its name")
                .isNotEmpty()
                .containsOnly("fleeting");
    }

    @Test
    void aTimeRangeAndPagesNarrowTheSearch() {
        Instant before = Instant.now().minusMillis(1);
        List<String> ids = new ArrayList<>();
        for (int n = 0; n < 3; n++) {
            String id = http.post("/actuator/ax/tasks/handler/trigger").read("$.instanceId");
            ids.add(id);
            // one after the other: a run that meets the previous one still running is skipped
            await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        }
        String range = "task=handler&from=" + before + "&to=" + Instant.now().plusSeconds(1);

        Http.Answer first = http.get("/actuator/ax/instances?" + range + "&page=0&size=2");
        Http.Answer second = http.get("/actuator/ax/instances?" + range + "&page=1&size=2");

        assertThat(first.<Boolean>read("$.more")).isTrue();
        assertThat(second.<Boolean>read("$.more")).isFalse();
        List<String> found = new ArrayList<>(first.<List<String>>read("$.instances[*].id"));
        found.addAll(second.read("$.instances[*].id"));
        assertThat(found).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(http.get("/actuator/ax/instances?task=handler&to=" + before).<List<String>>read("$.instances"))
                .as("none before the range")
                .isEmpty();
    }

    @Test
    void badCriteriaAnswer400WithAMessageThatNamesThem() {
        assertBadRequest("state=LOST", "state must be one of");
        assertBadRequest("from=yesterday", "from must be an ISO-8601 instant");
        assertBadRequest("to=2026-13-01T00:00:00Z", "to must be an ISO-8601 instant");
        assertBadRequest("from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "must not be after to");
        assertBadRequest("size=0", "size between 1 and 200");
        assertBadRequest("size=201", "size between 1 and 200");
        assertBadRequest("page=-1", "page must be >= 0");
        assertBadRequest("page=abc", "page must be a whole number");
        assertBadRequest("page=50&size=200", "narrow the search with from and to");
    }

    private void assertBadRequest(String query, String message) {
        Http.Answer answer = http.get("/actuator/ax/instances?" + query);
        assertThat(answer.status()).as(query).isEqualTo(400);
        assertThat(answer.<String>read("$.message")).as(query).contains(message);
    }

    private String deadInstance(String task) {
        String id = engine.triggerNow(task);
        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        return id;
    }

    private InstanceState state(String id) {
        return engine.find(id).map(d -> d.instance().state()).orElse(null);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Jobs.class)
    static class App {}

    static class Jobs {

        @AxJob(name = "handler", timeout = "5s")
        void handler() {}

        @AxJob(name = "doomed", timeout = "5s", retry = @AxJob.Retry(times = "0"))
        void doomed() {
            throw new IllegalStateException("the downstream system is gone");
        }

        /** Runs the MEMORY task "fleeting", which always fails: its instances live in memory beside the database. */
        @Bean
        AxExecutor failingExecutor() {
            return new AxExecutor() {
                @Override
                public boolean matchTaskType(String type) {
                    return FLEETING.equals(type);
                }

                @Override
                public AxResult execute(AxTask task, AxContext context) {
                    throw new IllegalStateException("lost and not missed");
                }
            };
        }

        @Bean
        SmartInitializingSingleton fleetingTask(AxEngine engine) {
            return () -> engine.register(AxTask.builder("fleeting")
                    .type(FLEETING)
                    .durability(Durability.MEMORY)
                    .timeout(Duration.ofSeconds(5))
                    .build());
        }
    }

    private static final String FLEETING = "FLEETING";
}
