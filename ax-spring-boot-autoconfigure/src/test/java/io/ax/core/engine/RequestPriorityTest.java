package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.InstanceState;
import io.ax.core.InvalidScheduleException;
import io.ax.core.ScheduleRequest;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A request's priority ({@link ScheduleRequest#priority(int)}) goes with its execution to the pool of the node that
 * runs it, in memory and through the store: a saturated pool starts the requests in priority order, whatever order
 * they were made in.
 */
class RequestPriorityTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String PREFIX = "axprio_";

    enum Where {
        MEMORY,
        STORE_IN_MEMORY,
        H2
    }

    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch blocking = new CountDownLatch(1);
    private final List<String> started = new CopyOnWriteArrayList<>();
    private final AtomicInteger received = new AtomicInteger();
    private AxEngine engine;

    @AfterEach
    void stop() {
        release.countDown();
        if (engine != null) {
            engine.stop();
        }
    }

    private AxEngine engine(InstanceStore store) {
        io.ax.test.RecordingExecutor executor = new io.ax.test.RecordingExecutor()
                .when("blocker", context -> {
                    blocking.countDown();
                    release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
                    return AxResult.success();
                })
                .when("mail", context -> {
                    started.add(context.payload(String.class));
                    return AxResult.success();
                });
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-p")
                .pools(Map.of("mail", new PoolSettings(1, 100)))
                .observer(new EngineObserver() {
                    @Override
                    public void received(AxTask task) {
                        received.incrementAndGet();
                    }
                })
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        engine.register(
                AxTask.builder("blocker").target("test.blocker").group("mail").build());
        engine.register(AxTask.builder("mail")
                .target("test.mail")
                .group("mail")
                .concurrent(true)
                .priority(5)
                .build());
        engine.start();
        return engine;
    }

    @ParameterizedTest
    @EnumSource(Where.class)
    void aSaturatedPoolStartsRequestsByTheirPriority(Where where) throws InterruptedException {
        InstanceStore store = new InMemoryInstanceStore();
        if (where == Where.H2) {
            TestDatabase.H2.migrate(PREFIX);
            store = TestDatabase.H2.emptyStore(PREFIX);
        }
        AxEngine e = engine(store);
        e.triggerNow("blocker");
        assertThat(blocking.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

        Durability durability = where == Where.MEMORY ? Durability.MEMORY : Durability.PERSISTENT;
        List<ScheduleRequest> requests = new ArrayList<>();
        // the task's own priority is 5: a request without one sits between the others
        for (var r : List.of(
                List.of("newsletter", -20), List.of("receipt", 0), List.of("reset", 50), List.of("invoice", 10))) {
            requests.add(ScheduleRequest.of("mail")
                    .after(Duration.ZERO)
                    .payload((String) r.get(0))
                    .priority((Integer) r.get(1))
                    .durability(durability));
        }
        requests.add(ScheduleRequest.of("mail")
                .after(Duration.ZERO)
                .payload("welcome")
                .durability(durability));
        List<String> ids = e.scheduleAll(requests);
        await().atMost(BOUND).until(() -> received.get() == 1 + ids.size()); // all in the pool's queue
        release.countDown();

        await().atMost(BOUND).until(() -> started.size() == ids.size());
        assertThat(started).containsExactly("reset", "invoice", "welcome", "receipt", "newsletter");
        await().atMost(BOUND)
                .until(() -> ids.stream()
                        .allMatch(id -> e.find(id).orElseThrow().instance().state() == InstanceState.SUCCESS));
        if (where != Where.MEMORY) {
            assertThat(e.find(ids.get(2)).orElseThrow().instance().priority()).isEqualTo(50);
            assertThat(e.find(ids.get(4)).orElseThrow().instance().priority()).isNull();
        }
    }

    @Test
    void aPriorityOutOfRangeIsRefusedWithTheRequest() {
        AxEngine e = engine(new InMemoryInstanceStore());
        assertThatThrownBy(() -> e.scheduleAll(
                        List.of(ScheduleRequest.of("mail").after(Duration.ZERO).priority(1001))))
                .isInstanceOf(InvalidScheduleException.class)
                .hasMessageContaining("priority for 'mail'")
                .hasMessageContaining("must be between -1000 and 1000, was 1001");
    }
}
