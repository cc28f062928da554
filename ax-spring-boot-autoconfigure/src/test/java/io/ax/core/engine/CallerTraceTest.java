package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskInstance;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The trace a caller of {@code AxScheduler} is in, as the engine keeps it: with the instance, handed to each
 * attempt's tracer, and never at the cost of the schedule itself.
 */
class CallerTraceTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    /** Instance id -> the trace parent its first attempt was begun with ("none" for null). */
    private final Map<String, String> begun = new ConcurrentHashMap<>();

    private final AtomicInteger captures = new AtomicInteger();
    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void aPersistentExecutionKeepsTheCallersTraceAndItsAttemptContinuesIt() {
        start(() -> Optional.of(PARENT));

        String id = engine.schedule("mail", Duration.ZERO, null);

        assertThat(engine.store().find(id).map(TaskInstance::traceParent)).contains(PARENT);
        await().atMost(BOUND).until(() -> begun.containsKey(id));
        assertThat(begun).containsEntry(id, PARENT);
    }

    @Test
    void aMemoryExecutionKeepsTheCallersTraceWhileItWaitsAndItsAttemptContinuesIt() {
        start(() -> Optional.of(PARENT));

        String waiting = engine.schedule(
                ScheduleRequest.of("mail").after(Duration.ofHours(1)).durability(Durability.MEMORY));
        String soon = engine.schedule(
                ScheduleRequest.of("mail").after(Duration.ofMillis(20)).durability(Durability.MEMORY));

        assertThat(engine.find(waiting).map(d -> d.instance().traceParent())).contains(PARENT);
        await().atMost(BOUND).until(() -> begun.containsKey(soon));
        assertThat(begun).containsEntry(soon, PARENT);
    }

    @Test
    void aBatchAsksForTheCallersTraceOnce() {
        start(() -> Optional.of(PARENT));

        List<String> ids = engine.scheduleAll(List.of(
                ScheduleRequest.of("mail").after(Duration.ofHours(1)),
                ScheduleRequest.of("mail").after(Duration.ofHours(1)),
                ScheduleRequest.of("mail").after(Duration.ofHours(1)).durability(Durability.MEMORY)));

        assertThat(captures).hasValue(1);
        assertThat(ids)
                .allSatisfy(
                        id -> assertThat(engine.find(id).map(d -> d.instance().traceParent()))
                                .contains(PARENT));
    }

    @Test
    void aCaptureThatThrowsLeavesTheExecutionScheduledWithoutATrace() {
        start(() -> {
            throw new IllegalStateException("tracer down");
        });

        String id = engine.schedule("mail", Duration.ZERO, null);

        assertThat(engine.store().find(id).orElseThrow().traceParent()).isNull();
        await().atMost(BOUND).until(() -> begun.containsKey(id));
        assertThat(begun).containsEntry(id, "none");
    }

    @Test
    void aTraceParentNoStoreCouldKeepIsLeftOut() {
        start(() -> Optional.of("0".repeat(TaskInstance.MAX_TRACE_PARENT_LENGTH + 1)));

        String id = engine.schedule("mail", Duration.ofHours(1), null);

        assertThat(engine.store().find(id).orElseThrow().traceParent()).isNull();
    }

    @Test
    void aCallerOutsideAnyTraceSchedulesWithoutOne() {
        start(Optional::empty);

        String id = engine.schedule("mail", Duration.ZERO, null);

        await().atMost(BOUND).until(() -> begun.containsKey(id));
        assertThat(begun).containsEntry(id, "none");
        assertThat(engine.store().find(id).orElseThrow().traceParent()).isNull();
    }

    private void start(Supplier<Optional<String>> trace) {
        engine = AxEngine.builder()
                .store(new InMemoryInstanceStore())
                .router(new ExecutorRouter(List.of(new RecordingExecutor())))
                .nodeId("node-t")
                .shutdownAwait(Duration.ofSeconds(2))
                .traceCapture(() -> {
                    captures.incrementAndGet();
                    return trace.get();
                })
                .tracer(attempt -> {
                    begun.putIfAbsent(
                            attempt.instanceId(), attempt.traceParent() == null ? "none" : attempt.traceParent());
                    return outcome -> {};
                })
                .build();
        engine.register(AxTask.builder("mail").concurrent(true).build());
        engine.start();
    }
}
