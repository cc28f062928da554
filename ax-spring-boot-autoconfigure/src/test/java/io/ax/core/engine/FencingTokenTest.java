package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.RetryPolicy;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fencing token a handler gets: the epoch of the attempt's assignment and its number, growing with each. */
class FencingTokenTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final RecordingExecutor executor = new RecordingExecutor();
    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void everyAttemptCarriesTheLeadersEpochAndALargerTokenThanTheOneBefore() {
        executor.when("flaky", ctx -> ctx.attempt() < 3 ? AxResult.failure("not yet") : AxResult.success());
        engine = AxEngine.builder()
                .store(new InMemoryInstanceStore())
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .build();
        engine.register(AxTask.builder("flaky")
                .target("test.flaky")
                .retry(new RetryPolicy(3, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build());
        engine.start();

        String id = engine.triggerNow("flaky");
        await().atMost(BOUND).until(() -> executor.runsOf("flaky").size() == 3);

        List<AxContext> attempts = executor.runsOf("flaky");
        long epoch = engine.status().cluster().epoch();
        assertThat(epoch).isPositive();
        assertThat(attempts).allSatisfy(c -> {
            assertThat(c.instanceId()).isEqualTo(id);
            assertThat(c.epoch()).isEqualTo(epoch);
            assertThat(c.fencingToken()).isEqualTo((epoch << 20) + c.attempt());
        });
        assertThat(attempts).extracting(AxContext::fencingToken).isSorted().doesNotHaveDuplicates();
    }
}
