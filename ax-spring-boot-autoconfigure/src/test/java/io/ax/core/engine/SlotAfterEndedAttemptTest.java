package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.engine.threads.Due;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import io.ax.test.store.FailingStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A non-overlapping task's slot after its attempt ended here while the end still waits in the writer: the store says
 * RUNNING, this node's worker is done and freed the slot. A second dispatch of that instance (a sweep that read it
 * SCHEDULED before its claim, say) loses its claim and finds the row in flight on this node; it must free the slot it
 * took, not keep it for an attempt that no worker here holds any more, which skipped every fire of the task until the
 * store was asked seconds later.
 */
class SlotAfterEndedAttemptTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final FailingStore store = new FailingStore(new InMemoryInstanceStore());
    private final RecordingExecutor executor = new RecordingExecutor();
    private final CountDownLatch endsMayLand = new CountDownLatch(1);
    private AxEngine engine;

    @AfterEach
    void stop() {
        endsMayLand.countDown();
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void aLostSecondClaimOfAnInstanceThatEndedHereFreesTheTasksSlot() throws Exception {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .pools(Map.of())
                .shutdownAwait(Duration.ofSeconds(1))
                .build();
        engine.register(AxTask.builder("job").build()); // on demand, not concurrent
        engine.start();
        // every SUCCESS waits in the writer: the attempt ends here, the store keeps saying RUNNING
        store.beforeTransitions(changes -> {
            if (changes.stream().anyMatch(t -> t.to() == InstanceState.SUCCESS)) {
                try {
                    endsMayLand.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });

        String first = engine.triggerNow("job");
        await().atMost(BOUND).until(() -> executor.runsOf("job").size() == 1);
        TaskInstance ended = engine.find(first).orElseThrow().instance();
        assertThat(ended.state()).as("its end waits in the writer").isEqualTo(InstanceState.RUNNING);
        EngineParts parts = engine.parts();
        await().atMost(BOUND).until(() -> !parts.runner.holds(first)); // its worker is done

        // the same instance dispatched again: its claim loses (RUNNING), and the row is in flight on this node
        AxTask job = parts.tasks.get("job");
        Due again = new Due(job, ended);
        CountDownLatch dispatched = new CountDownLatch(1);
        parts.onDispatchThread(() -> {
            parts.dispatcher.dispatchFresh(again);
            dispatched.countDown();
        });
        assertThat(dispatched.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

        // the next run of the task starts, well within the seconds the slot would otherwise be held: a run asked for
        // while that dispatch still settles is SKIPPED, so one is asked for at every look
        await().atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    engine.triggerNow("job");
                    return executor.runsOf("job").size() >= 2;
                });
    }
}
