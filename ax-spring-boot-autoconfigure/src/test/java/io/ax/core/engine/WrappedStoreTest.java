package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskInstance;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.RecordingExecutor;
import io.ax.test.store.PlainStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A store the application wraps (a plain {@link InstanceStore} that does not keep the cluster's leases, as a
 * decorator that counts calls would be): the engine keeps its leases in the process and sends its writes to that
 * store unfenced, in either mode. Before, the leader's new fires went to it fenced by an epoch it could not know
 * (no series ever fired), and a partitioned node fenced every decision by partition epochs it could not know
 * (nothing it decided was written).
 */
class WrappedStoreTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final InMemoryInstanceStore inner = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void runsSeriesFiresOnDemandRunsAndDelayedTasksOnAWrappedStore() {
        executor.when("tick", ctx -> AxResult.success());
        executor.when("now", ctx -> AxResult.success());
        executor.when("later", ctx -> AxResult.success());
        engine = AxEngine.builder()
                .store(wrapped(inner))
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("wrapped-node")
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        engine.register(AxTask.builder("tick")
                .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(200), Duration.ZERO))
                .build());
        engine.register(AxTask.builder("now").build());
        engine.register(AxTask.builder("later").build());
        engine.start();

        String onDemand = engine.triggerNow("now");
        String delayed = engine.schedule(ScheduleRequest.of("later").after(Duration.ofMillis(300)));

        await().atMost(BOUND).until(() -> executor.runsOf("tick").size() >= 3);
        await().atMost(BOUND).until(() -> succeeded(onDemand) && succeeded(delayed));
        assertThat(executor.runsOf("now")).hasSize(1);
        assertThat(executor.runsOf("later")).hasSize(1);
    }

    private boolean succeeded(String instanceId) {
        Optional<TaskInstance> row = inner.find(instanceId);
        return row.isPresent() && row.get().state() == InstanceState.SUCCESS;
    }

    /** The store behind an interface that offers nothing but {@link InstanceStore}. */
    private static InstanceStore wrapped(InstanceStore store) {
        return PlainStore.of(store);
    }
}
