package io.ax.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxStoreRegressionEvent;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A node whose database went back in time (here its own heartbeat, set back by hand in H2, which tells nothing of
 * itself) is DOWN for a while with what it found, then UP again with the finding kept in the details.
 */
class StoreWentBackHealthTest {

    private static final String PREFIX = "axback_";
    private static final ClusterSettings FAST = new ClusterSettings(
                    Duration.ofMillis(200), Duration.ofMillis(1_500), Duration.ofMillis(500), Duration.ofMillis(100), 8)
            .withPartitions(8);

    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void aHeartbeatThatWentBackMakesTheNodeDownWithWhatItFoundThenUpAgain() {
        TestDatabase.H2.migrate(PREFIX);
        TestDatabase.H2.truncate(PREFIX);
        List<AxStoreRegressionEvent> events = new CopyOnWriteArrayList<>();
        engine = AxEngine.builder()
                .store(new JdbcInstanceStore(TestDatabase.H2.dataSource(), PREFIX))
                .router(new ExecutorRouter(List.of(new RecordingExecutor())))
                .nodeId("n1")
                .clusterSettings(FAST)
                .onStoreRegression(events::add)
                .build();
        engine.start();
        AxHealthIndicator health = new AxHealthIndicator(engine, Duration.ofMinutes(1), Status.DOWN, List.of());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> health.health().getStatus().equals(Status.UP));

        new JdbcTemplate(TestDatabase.H2.dataSource())
                .update("UPDATE " + PREFIX + "node SET heartbeat_us = heartbeat_us - 5000000 WHERE node_id = 'n1'");

        Health down = await().atMost(Duration.ofSeconds(10))
                .until(health::health, h -> h.getStatus().equals(Status.DOWN));
        assertThat(down.getDetails().get("store")).asString().contains("went back in time");
        assertThat(down.getDetails().get("storeWentBack")).asString().contains("heartbeat went back");
        await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 1);

        Health up = await().atMost(Duration.ofSeconds(10))
                .until(health::health, h -> h.getStatus().equals(Status.UP));
        assertThat(up.getDetails()).containsKey("storeWentBack");
        await("the node owns its partitions again")
                .atMost(Duration.ofSeconds(10))
                .until(() -> engine.status().partitions().orElseThrow().owned().size() == 8);
    }
}
