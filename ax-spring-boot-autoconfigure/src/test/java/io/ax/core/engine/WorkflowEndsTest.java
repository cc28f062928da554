package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxTask;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.trigger.DependencyTrigger;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A run goes on from the ends of its steps, not from the leader's sweep: with a heartbeat (and so a sweep) once in
 * ten minutes, runs still go through.
 */
class WorkflowEndsTest {

    private static final ClusterSettings SLOW_HEARTBEAT = new ClusterSettings(
            Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofSeconds(3), Duration.ofMillis(50), 32);

    private final RecordingExecutor executor = new RecordingExecutor();
    private final AxEngine engine = AxEngine.builder()
            .store(new InMemoryInstanceStore())
            .router(new ExecutorRouter(List.of(executor)))
            .nodeId("node-e")
            .clusterSettings(SLOW_HEARTBEAT)
            .shutdownAwait(Duration.ofSeconds(2))
            .build();

    @AfterEach
    void stop() {
        engine.stop();
    }

    @Test
    void eachEndMovesItsRunOnWithoutWaitingForASweep() {
        engine.register(AxTask.builder("first").target("t").concurrent(true).build());
        engine.register(AxTask.builder("second")
                .target("t")
                .trigger(DependencyTrigger.after("first"))
                .build());
        engine.register(AxTask.builder("third")
                .target("t")
                .trigger(DependencyTrigger.after("second"))
                .build());
        engine.start();

        List<String> runs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            runs.add(engine.triggerNow("first"));
        }

        await().atMost(Duration.ofSeconds(20))
                .until(() -> engine.recentRuns("first", 10).stream()
                                .filter(r -> r.state().equals("succeeded"))
                                .count()
                        == 5);
        assertThat(executor.runsOf("third")).extracting(c -> c.runId()).containsExactlyInAnyOrderElementsOf(runs);
    }
}
