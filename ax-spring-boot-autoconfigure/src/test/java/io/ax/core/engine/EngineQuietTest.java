package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the engine says it is busy with: what a test waits on before it moves its clock. */
class EngineQuietTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final RecordingExecutor executor = new RecordingExecutor().when("hold", context -> {
        started.countDown();
        release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
        return AxResult.success();
    });
    private final AxEngine engine = AxEngine.builder()
            .store(new InMemoryInstanceStore())
            .router(new ExecutorRouter(List.of(executor)))
            .nodeId("node-q")
            .shutdownAwait(Duration.ofSeconds(2))
            .build();

    @AfterEach
    void stop() {
        release.countDown();
        engine.close();
    }

    @Test
    void anAttemptRunningKeepsThePoolsBusyAndItsEndMakesTheEngineQuietAgain() throws InterruptedException {
        engine.register(AxTask.builder("hold")
                .target("test.hold")
                .timeout(Duration.ofSeconds(20))
                .build());
        engine.start();
        await().atMost(BOUND).until(engine.status()::isQuiet);

        String id = engine.triggerNow("hold");
        assertThat(started.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

        assertThat(engine.status().busyWith()).contains("pools");
        assertThat(engine.status().isQuiet()).isFalse();

        release.countDown();
        await().atMost(BOUND)
                .until(() -> engine.find(id).orElseThrow().instance().state().isFinal()
                        && engine.status().isQuiet());
        assertThat(engine.status().busyWith()).isEmpty();
    }
}
