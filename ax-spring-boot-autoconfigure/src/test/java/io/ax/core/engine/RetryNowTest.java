package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.InstanceState;
import io.ax.core.RetryNowException;
import io.ax.core.RetryPolicy;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A handler that throws {@link RetryNowException} is tried again at once, whatever its retry policy says. */
class RetryNowTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    private AxEngine start(AxTask task) {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .build();
        engine.register(task);
        engine.start();
        return engine;
    }

    private InstanceState state(String id) {
        return store.find(id).orElseThrow().state();
    }

    @Test
    void aTaskWithoutRetriesIsTriedAgainAtOnceUntilItStopsAskingAndThenSucceeds() {
        executor.when("flaky", ctx -> {
            if (ctx.attempt() < 4) {
                throw new RetryNowException("try " + ctx.attempt() + " again", new IllegalStateException("busy"));
            }
            return AxResult.success();
        });
        String id =
                start(AxTask.builder("flaky").retry(RetryPolicy.none()).build()).triggerNow("flaky");

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("flaky")).extracting(AxContext::attempt).containsExactly(1, 2, 3, 4);
        assertThat(store.auditTrail(id))
                .filteredOn(e -> e.to() == InstanceState.RETRYING)
                .extracting(AuditEntry::reason)
                .containsExactly("attempt 2 in PT0S", "attempt 3 in PT0S", "attempt 4 in PT0S");
        assertThat(store.auditTrail(id))
                .filteredOn(e -> e.to() == InstanceState.FAILED)
                .first()
                .satisfies(e -> assertThat(e.reason()).isEqualTo("io.ax.core.RetryNowException: try 1 again"));
    }

    @Test
    void anyOtherFailureFollowsTheRetryPolicyWhichCountsTheAttemptsRetriedAtOnce() {
        executor.when("then-broken", ctx -> {
            if (ctx.attempt() == 1) {
                throw new RetryNowException("again", null);
            }
            throw new IllegalStateException("broken for good");
        });
        String id = start(AxTask.builder("then-broken")
                        .retry(new RetryPolicy(2, Backoff.FIXED, Duration.ofMillis(50), Duration.ofMillis(50)))
                        .build())
                .triggerNow("then-broken");

        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(executor.runsOf("then-broken"))
                .extracting(AxContext::attempt)
                .containsExactly(1, 2, 3);
        assertThat(store.auditTrail(id))
                .filteredOn(e -> e.to() == InstanceState.RETRYING)
                .extracting(AuditEntry::reason)
                .containsExactly("attempt 2 in PT0S", "attempt 3 in PT0.05S");
    }
}
