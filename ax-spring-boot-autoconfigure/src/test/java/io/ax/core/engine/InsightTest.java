package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.InstanceState;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.ClusterView;
import io.ax.core.engine.EngineObserver.DispatchOutcome;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the engine tells its observers, and the backlog it keeps without asking the store. */
class InsightTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private final Recording recording = new Recording();
    private final CountDownLatch release = new CountDownLatch(1);
    private AxEngine engine;

    @AfterEach
    void stop() {
        release.countDown();
        if (engine != null) {
            engine.stop();
        }
    }

    private AxEngine start(Map<String, PoolSettings> pools, EngineObserver... more) {
        AxEngineBuilder b = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .pools(pools)
                .rejectionBackoff(Duration.ofMillis(50))
                .shutdownAwait(Duration.ofSeconds(2))
                .observer(recording);
        for (EngineObserver o : more) {
            b.observer(o);
        }
        engine = b.build();
        return engine;
    }

    @Test
    void observersHearEveryStepOfSuccessfulRuns() {
        AxEngine e = start(Map.of());
        e.register(task("quick").build());
        e.start();
        String id = e.triggerNow("quick");
        await().atMost(BOUND).until(() -> recording.finished.size() == 1);
        assertThat(recording.dispatched).containsExactly("quick:DISPATCHED");
        assertThat(recording.received).containsExactly("quick");
        assertThat(recording.started).singleElement().satisfies(s -> {
            assertThat(s.attempt()).isEqualTo(1);
            assertThat(s.lateness()).isGreaterThanOrEqualTo(Duration.ZERO);
            assertThat(s.ack()).isGreaterThanOrEqualTo(Duration.ZERO);
        });
        assertThat(recording.finished).containsExactly("quick:SUCCESS");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
    }

    @Test
    void observersHearRetriesDeadLettersAndFailures() {
        executor.when("doomed", ctx -> AxResult.failure("no"));
        AxEngine e = start(Map.of());
        e.register(task("doomed")
                .retry(new RetryPolicy(1, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build());
        e.start();
        e.triggerNow("doomed");
        await().atMost(BOUND).until(() -> recording.deadLettered.size() == 1);
        assertThat(recording.finished).containsExactly("doomed:FAILED", "doomed:FAILED");
        assertThat(recording.retried).containsExactly("doomed");
        assertThat(recording.started).extracting(Started::attempt).containsExactly(1, 2);
    }

    @Test
    void observersHearSkippedAndRejectedFires() {
        executor.when("hog", ctx -> {
            release.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return AxResult.success();
        });
        AxEngine e = start(Map.of("tiny", new PoolSettings(1, 0)));
        e.register(task("hog").group("tiny").concurrent(true).build());
        e.register(task("long")
                .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(20), Duration.ZERO))
                .build());
        executor.when("long", ctx -> {
            release.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return AxResult.success();
        });
        e.start();
        String first = e.triggerNow("hog");
        await().atMost(BOUND).until(() -> state(first) == InstanceState.RUNNING);
        e.triggerNow("hog");
        await().atMost(BOUND)
                .until(() ->
                        recording.dispatched.contains("hog:REJECTED") && recording.dispatched.contains("long:SKIPPED"));
    }

    @Test
    void theBacklogCountsDueInstancesWaitingForAWorkerPerPool() {
        executor.when("hog", ctx -> {
            release.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return AxResult.success();
        });
        AxEngine e = start(Map.of("tiny", new PoolSettings(1, 10)));
        e.register(task("hog").group("tiny").concurrent(true).build());
        e.start();
        assertThat(e.status().backlog().total()).isZero();
        assertThat(e.status().backlog().oldestAge()).isEqualTo(Duration.ZERO);

        String first = e.triggerNow("hog");
        await().atMost(BOUND).until(() -> state(first) == InstanceState.RUNNING);
        e.triggerNow("hog");
        e.scheduleAll(List.of(
                io.ax.core.ScheduleRequest.of("hog").after(Duration.ZERO).priority(7)));

        await().atMost(BOUND).until(() -> e.status().backlog().of("tiny") == 2);
        assertThat(e.status().backlog().perGroup()).containsOnlyKeys("tiny");
        assertThat(e.status().backlog().perPriority())
                .as("waiting per priority, highest first")
                .containsExactly(Map.entry(7, 1), Map.entry(0, 1));
        assertThat(e.status().backlog().oldestAge()).isGreaterThanOrEqualTo(Duration.ZERO);
        release.countDown();
        await().atMost(BOUND).until(() -> e.status().backlog().total() == 0);
        assertThat(recording.received).hasSize(3);
    }

    @Test
    void anObserverThatThrowsDoesNotStopTheEngine() {
        EngineObserver broken = new EngineObserver() {
            @Override
            public void started(AxTask task, int attempt, Duration lateness, Duration ackLatency) {
                throw new IllegalStateException("observer broke");
            }
        };
        AxEngine e = start(Map.of(), broken);
        e.register(task("quick").concurrent(true).build());
        e.start();
        String one = e.triggerNow("quick");
        String two = e.triggerNow("quick");
        await().atMost(BOUND).until(() -> state(one) == InstanceState.SUCCESS && state(two) == InstanceState.SUCCESS);
        assertThat(recording.finished).hasSize(2);
    }

    @Test
    void aSingleNodeIsItsOwnLeader() {
        AxEngine e = start(Map.of());
        e.start();
        ClusterView view = e.status().cluster();
        assertThat(view.nodeId()).isEqualTo("node-a");
        assertThat(view.isLeader()).isTrue();
        assertThat(view.leader()).isEqualTo("node-a");
        assertThat(view.epoch()).as("its first lease").isEqualTo(1);
        assertThat(view.liveNodes()).containsExactly("node-a");
    }

    private record Started(String task, int attempt, Duration lateness, Duration ack) {}

    private static final class Recording implements EngineObserver {
        final List<String> dispatched = new CopyOnWriteArrayList<>();
        final List<String> received = new CopyOnWriteArrayList<>();
        final List<Started> started = new CopyOnWriteArrayList<>();
        final List<String> finished = new CopyOnWriteArrayList<>();
        final List<String> retried = new CopyOnWriteArrayList<>();
        final List<String> deadLettered = new CopyOnWriteArrayList<>();

        @Override
        public void dispatched(AxTask task, DispatchOutcome outcome) {
            dispatched.add(task.name() + ":" + outcome);
        }

        @Override
        public void received(AxTask task) {
            received.add(task.name());
        }

        @Override
        public void started(AxTask task, int attempt, Duration lateness, Duration ackLatency) {
            started.add(new Started(task.name(), attempt, lateness, ackLatency));
        }

        @Override
        public void finished(AxTask task, InstanceState outcome, Duration took) {
            finished.add(task.name() + ":" + outcome);
        }

        @Override
        public void retried(AxTask task) {
            retried.add(task.name());
        }

        @Override
        public void deadLettered(AxTask task) {
            deadLettered.add(task.name());
        }
    }

    private static AxTask.Builder task(String name) {
        return AxTask.builder(name).target("test." + name).timeout(Duration.ofSeconds(20));
    }

    private InstanceState state(String id) {
        return store.find(id).map(TaskInstance::state).orElse(null);
    }
}
