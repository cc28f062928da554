package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.InstanceState;
import io.ax.core.InvalidTaskException;
import io.ax.core.RetryPolicy;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TriggerWithParamsTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private final AxEngine engine = AxEngine.builder()
            .store(store)
            .router(new ExecutorRouter(List.of(executor)))
            .nodeId("node-p")
            .shutdownAwait(Duration.ofSeconds(2))
            .build();

    @AfterEach
    void stop() {
        engine.stop();
    }

    private void start() {
        engine.register(AxTask.builder("export")
                .target("t.export")
                .params(Map.of("region", "eu", "format", "csv"))
                .retry(new RetryPolicy(1, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build());
        engine.start();
    }

    @Test
    void aRunsParametersAreLaidOverTheTasksOwnForEveryAttempt() {
        executor.when("export", ctx -> ctx.attempt() == 1 ? AxResult.failure("first try fails") : AxResult.success());
        start();

        String id = engine.triggerNow("export", Map.of("region", "us"));

        await().atMost(BOUND)
                .until(() -> store.find(id)
                        .map(i -> i.state() == InstanceState.SUCCESS)
                        .orElse(false));
        assertThat(executor.runsOf("export"))
                .hasSize(2)
                .extracting(AxContext::params)
                .containsOnly(Map.of("region", "us", "format", "csv"));
        assertThat(store.auditTrail(id).get(0).reason()).isEqualTo("triggered on demand with parameters [region]");

        String plain = engine.triggerNow("export");
        await().atMost(BOUND)
                .until(() -> executor.runsOf("export").stream()
                        .anyMatch(c -> c.instanceId().equals(plain)));
        assertThat(executor.runsOf("export").stream()
                        .filter(c -> c.instanceId().equals(plain))
                        .findFirst()
                        .orElseThrow()
                        .params())
                .isEqualTo(Map.of("region", "eu", "format", "csv"));
    }

    @Test
    void aParameterTheTaskDoesNotDeclareIsRefusedAndNothingIsWritten() {
        start();

        assertThatThrownBy(() -> engine.triggerNow("export", Map.of("regoin", "us")))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("attribute 'params.regoin'")
                .hasMessageContaining("a run may set only those it declares: [format, region]");
        assertThat(store.findByTask("export", 10)).isEmpty();
    }
}
