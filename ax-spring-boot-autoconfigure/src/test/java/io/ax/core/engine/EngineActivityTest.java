package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The activity an engine reports ({@link AxEngine#activity}): every engine on one store in the sums, a stopped
 * engine's last counts written as it stops, and windows a chart can ask for.
 */
class EngineActivityTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final List<AxEngine> engines = new ArrayList<>();

    @AfterEach
    void stopAll() {
        engines.forEach(AxEngine::stop);
    }

    private AxEngine engine(String node) {
        AxEngine engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(new RecordingExecutor())))
                .nodeId(node)
                .shutdownAwait(Duration.ofSeconds(2))
                .activityFlush(Duration.ofHours(1)) // only the test and the stop write
                .build();
        engine.register(AxTask.builder("quick")
                .target("test.quick")
                .timeout(Duration.ofSeconds(20))
                .build());
        engines.add(engine);
        engine.start();
        return engine;
    }

    @Test
    void everyEngineOnTheStoreIsInTheSumsAndAStoppedOneWroteItsLastCounts() {
        AxEngine a = engine("node-a");
        AxEngine b = engine("node-b");
        runOnce(a);
        runOnce(a);
        runOnce(b);

        b.stop(); // writes what it counted, although its flush is an hour away

        Activity seen = a.activity(null, Duration.ofHours(1), Duration.ofMinutes(1));
        assertThat(seen.cluster()).isTrue();
        assertThat(seen.buckets()).hasSize(60);
        assertThat(seen.buckets().stream().mapToLong(Activity.Bucket::fires).sum())
                .isEqualTo(3);
        assertThat(seen.buckets().stream().mapToLong(Activity.Bucket::successes).sum())
                .isEqualTo(3);
        assertThat(a.activity("quick", Duration.ofDays(1), Duration.ofMinutes(10))
                        .buckets())
                .hasSize(144)
                .extracting(Activity.Bucket::fires)
                .contains(3L);
    }

    @Test
    void aStoppingEngineWritesItsLastCounts() {
        AxEngine a = engine("node-a");
        runOnce(a);
        java.time.Instant from = java.time.Instant.now().minus(Duration.ofMinutes(2));
        assertThat(store.activity().orElseThrow().find("quick", from, from.plus(Duration.ofMinutes(4))))
                .as("not written before its flush")
                .isEmpty();

        a.stop();

        assertThat(store.activity().orElseThrow().find("quick", from, from.plus(Duration.ofMinutes(4))))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.node()).isEqualTo("node-a");
                    assertThat(row.fires()).isEqualTo(1);
                    assertThat(row.successes()).isEqualTo(1);
                });
    }

    @Test
    void aWindowThatIsNoWholeNumberOfBucketsOrLongerThanADayIsRefused() {
        AxEngine a = engine("node-a");

        assertThatThrownBy(() -> a.activity(null, Duration.ofMinutes(90), Duration.ofMinutes(60)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multiple of the bucket");
        assertThatThrownBy(() -> a.activity(null, Duration.ofDays(2), Duration.ofMinutes(10)))
                .hasMessageContaining("at most 1440 minutes");
        assertThatThrownBy(() -> a.activity(null, Duration.ofSeconds(90), Duration.ofMinutes(1)))
                .hasMessageContaining("window must be a positive whole number of minutes");
    }

    private void runOnce(AxEngine engine) {
        String id = engine.triggerNow("quick");
        await().atMost(BOUND)
                .until(() -> store.find(id).map(TaskInstance::state).orElse(null) == InstanceState.SUCCESS);
    }
}
