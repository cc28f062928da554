package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxIdempotency;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.clock.AxClock;
import io.ax.core.store.InMemoryIdempotency;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A handler guards an effect with {@code context.idempotent(...)}: the first run has it, a repeat does not. */
class IdempotentContextTest {

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

    @Test
    void aRepeatedRunFindsItsEffectAlreadyClaimed() {
        AxIdempotency shared = new InMemoryIdempotency(AxClock.system());
        List<Boolean> firsts = new CopyOnWriteArrayList<>();
        executor.when("mail", ctx -> {
            firsts.add(ctx.idempotent("welcome-mail:customer-7", Duration.ofHours(1)));
            return AxResult.success();
        });
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .idempotency(shared)
                .build();
        engine.register(AxTask.builder("mail")
                .target("test.mail")
                .timeout(Duration.ofSeconds(20))
                .build());
        engine.start();

        String first = engine.triggerNow("mail");
        await().atMost(BOUND).until(() -> state(first) == InstanceState.SUCCESS);
        String second = engine.triggerNow("mail");
        await().atMost(BOUND).until(() -> state(second) == InstanceState.SUCCESS);

        assertThat(firsts).containsExactly(true, false);
        assertThat(shared.claim("welcome-mail:customer-7", Duration.ofHours(1)))
                .as("the engine's claims are the bean's")
                .isFalse();
    }

    private InstanceState state(String id) {
        return store.find(id).map(TaskInstance::state).orElse(null);
    }
}
