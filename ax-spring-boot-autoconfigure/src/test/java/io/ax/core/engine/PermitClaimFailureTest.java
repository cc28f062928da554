package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.InstanceState;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskLimits;
import io.ax.core.Transition;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.Permits;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A retry of a limited task whose claim with permits fails in the store (a failover under way): the retry is not
 * lost. Its row stays RETRYING under this node, which no sweep and no takeover of a dead node's work looks at, so the
 * dispatch itself asks again after the back-off.
 */
class PermitClaimFailureTest {

    private static final Duration BOUND = Duration.ofSeconds(5);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void aRetryWhoseClaimWithPermitsFailedIsClaimedAgain() {
        Permits real = store.permits().orElseThrow();
        AtomicInteger retryClaimsToFail = new AtomicInteger(1);
        Permits failingOnce = new Permits() {
            @Override
            public Outcome claim(Transition claim, List<Limit> limits, boolean auditWait) {
                if (claim.from() == InstanceState.RETRYING && retryClaimsToFail.getAndDecrement() > 0) {
                    throw new IllegalStateException("the primary is gone (a failover under way)");
                }
                return real.claim(claim, limits, auditWait);
            }

            @Override
            public void noteWait(Transition claim, String reason) {
                real.noteWait(claim, reason);
            }

            @Override
            public int release(String instanceId, int attempt) {
                return real.release(instanceId, attempt);
            }

            @Override
            public List<Held> held(int limit) {
                return real.held(limit);
            }
        };
        engine = AxEngine.builder()
                .store(store)
                .permits(failingOnce)
                .router(new io.ax.core.engine.ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .pools(Map.of())
                .rejectionBackoff(Duration.ofMillis(100))
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        executor.when("limited", ctx -> {
            if (ctx.attempt() == 1) {
                throw new IllegalStateException("first attempt fails");
            }
            return null;
        });
        engine.register(AxTask.builder("limited")
                .target("test.limited")
                .timeout(Duration.ofSeconds(20))
                .limits(new TaskLimits(1, null, null))
                .retry(new RetryPolicy(1, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build());
        engine.start();

        String id = engine.triggerNow("limited");

        await().atMost(BOUND)
                .until(() -> store.find(id)
                        .map(i -> i.state() == InstanceState.SUCCESS)
                        .orElse(false));
        assertThat(retryClaimsToFail.get()).as("the retry's first claim failed").isNegative();
        assertThat(executor.runsOf("limited")).hasSize(2);
    }
}
