package io.ax.test.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AttemptError;
import io.ax.core.AuditEntry;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.DeadLetter;
import io.ax.core.Durability;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.EngineObserver;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.engine.RetentionSettings;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Retention deleting history while the engine is busy: a series firing every few milliseconds (some fires skipped
 * while the previous one still runs), a MEMORY series, handlers held RUNNING and delayed executions waiting for
 * their time, all written and finished while the leader's retention thread deletes in small batches. Nothing
 * unfinished or recent is deleted, nothing fails, and the series go on. A store's test extends this class and
 * supplies a fresh, empty store. Every wait is bounded and ends as soon as its condition holds.
 */
public abstract class RetentionWhileBusyContract {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final int HELD = 2;
    private static final int WAITING = 20;

    /** A fresh, empty store. */
    protected abstract InstanceStore newStore();

    // new for each test: a store's test may keep one instance of this class for all its tests
    private RecordingExecutor executor;
    private CountDownLatch release;
    private AtomicLong deleted;
    private InstanceStore store;
    private AxEngine engine;

    @BeforeEach
    void freshStore() {
        store = newStore();
        engine = null;
        deleted = new AtomicLong();
        release = new CountDownLatch(1);
        CountDownLatch held = release;
        executor = new RecordingExecutor().when("held", ctx -> {
            held.await();
            return AxResult.success();
        });
    }

    @AfterEach
    void stopEngine() {
        release.countDown();
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void deletesOldHistoryWhileTheEngineWorksAndKeepsEverythingRecentOrUnfinished() {
        Instant now = Instant.now();
        Instant threeHoursAgo = now.minus(Duration.ofHours(3));
        List<String> expired = new ArrayList<>();
        for (int n = 0; n < 120; n++) {
            InstanceState end = n % 3 == 0 ? InstanceState.SUCCESS : n % 3 == 1 ? InstanceState.SKIPPED : null;
            expired.add(end == null ? cancelled(threeHoursAgo) : finished(end, threeHoursAgo));
        }
        for (int n = 0; n < 10; n++) {
            expired.add(dead(threeHoursAgo));
        }
        List<String> youngDead = new ArrayList<>();
        for (int n = 0; n < 5; n++) {
            youngDead.add(dead(now.minus(Duration.ofMinutes(90))));
        }

        start(new RetentionSettings(true, Duration.ofHours(1), Duration.ofHours(2), Duration.ofMillis(20), 25));

        await().atMost(BOUND).until(() -> deleted.get() >= expired.size());
        await().atMost(BOUND).until(() -> executor.runsOf("tick").size() >= 100);

        assertThat(deleted.get()).as("counted: the old history, nothing else").isEqualTo(expired.size());
        assertThat(expired).allSatisfy(id -> assertThat(store.find(id)).isEmpty());
        assertThat(expired).allSatisfy(id -> assertThat(store.auditTrail(id)).isEmpty());
        assertThat(store.deadLetters(0, 100))
                .extracting(DeadLetter::instanceId)
                .containsExactlyInAnyOrderElementsOf(youngDead);
        assertThat(youngDead)
                .allSatisfy(id ->
                        assertThat(store.find(id)).map(TaskInstance::state).contains(InstanceState.DEAD));
        assertThat(executor.runsOf("tick"))
                .as("every recent instance is kept")
                .allSatisfy(run -> assertThat(store.find(run.instanceId())).isPresent());
        assertUnfinishedWorkIsIntact();
    }

    @Test
    void deletesInstancesSoonAfterTheyFinishWithoutTouchingUnfinishedOnesOrStoppingAnySeries() {
        start(new RetentionSettings(true, Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofMillis(10), 20));

        await().atMost(BOUND).until(() -> deleted.get() >= 100);
        int ticks = executor.runsOf("tick").size();
        int memos = executor.runsOf("memo").size();
        assertUnfinishedWorkIsIntact();
        await().atMost(BOUND)
                .alias("both series go on while their finished instances are deleted")
                .until(() -> executor.runsOf("tick").size() >= ticks + 50
                        && executor.runsOf("memo").size() >= memos + 50);
        String first = executor.runsOf("tick").get(0).instanceId();
        await().atMost(BOUND)
                .alias("the first fire, finished long ago, is gone")
                .until(() -> store.find(first).isEmpty());

        release.countDown();
        List<String> held = heldIds();
        await().atMost(BOUND)
                .alias("held instances are deleted once they finished")
                .until(() -> held.stream().noneMatch(id -> store.find(id).isPresent()));
    }

    private void start(RetentionSettings retention) {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-r")
                .pools(Map.of("held", new PoolSettings(HELD, 10)))
                .shutdownAwait(Duration.ofSeconds(2))
                .retention(retention)
                .observer(new EngineObserver() {
                    @Override
                    public void retentionDeleted(int count) {
                        deleted.addAndGet(count);
                    }
                })
                .build();
        engine.register(AxTask.builder("tick")
                .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(5), Duration.ZERO))
                .build());
        engine.register(AxTask.builder("memo")
                .durability(Durability.MEMORY)
                .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(5), Duration.ZERO))
                .build());
        engine.register(AxTask.builder("held").group("held").concurrent(true).build());
        engine.register(AxTask.builder("later").build());
        engine.start();
        for (int n = 0; n < HELD; n++) {
            engine.triggerNow("held");
        }
        for (int n = 0; n < WAITING; n++) {
            engine.schedule(ScheduleRequest.of("later").after(Duration.ofHours(1)));
        }
        await().atMost(BOUND).until(() -> executor.runsOf("held").size() == HELD);
    }

    /** The held handlers are still RUNNING, the delayed executions still wait, each with its whole audit trail. */
    private void assertUnfinishedWorkIsIntact() {
        for (String id : heldIds()) {
            assertThat(store.auditTrail(id))
                    .extracting(AuditEntry::to)
                    .containsExactly(InstanceState.CREATED, InstanceState.SCHEDULED, InstanceState.RUNNING);
        }
        List<TaskInstance> waiting = engine.instancesOf("later", 100);
        assertThat(waiting).hasSize(WAITING).allSatisfy(i -> {
            assertThat(i.state()).isEqualTo(InstanceState.SCHEDULED);
            assertThat(store.auditTrail(i.id()))
                    .extracting(AuditEntry::to)
                    .containsExactly(InstanceState.CREATED, InstanceState.SCHEDULED);
        });
    }

    private List<String> heldIds() {
        return executor.runsOf("held").stream().map(c -> c.instanceId()).toList();
    }

    // ---- old history, written as an earlier run of the application would have --------------------------------

    private String finished(InstanceState end, Instant at) {
        String id = scheduledAt(at);
        if (end == InstanceState.SKIPPED) {
            change(id, InstanceState.SCHEDULED, InstanceState.SKIPPED, at);
            return id;
        }
        change(id, InstanceState.SCHEDULED, InstanceState.DISPATCHED, at);
        change(id, InstanceState.DISPATCHED, InstanceState.RUNNING, at);
        change(id, InstanceState.RUNNING, end, at);
        return id;
    }

    private String cancelled(Instant at) {
        String id = scheduledAt(at);
        change(id, InstanceState.SCHEDULED, InstanceState.CANCELLED, at);
        return id;
    }

    private String dead(Instant at) {
        String id = finished(InstanceState.FAILED, at);
        change(id, InstanceState.FAILED, InstanceState.DEAD, at);
        store.saveDeadLetter(new DeadLetter(
                id,
                "history",
                at,
                Map.of(),
                List.of(new AttemptError(1, InstanceState.FAILED, "boom", at)),
                "java.lang.IllegalStateException: boom",
                at));
        return id;
    }

    /** An instance of a task this application no longer has, so that the engine leaves it alone. */
    private String scheduledAt(Instant at) {
        TaskInstance instance = new TaskInstance(
                UUID.randomUUID().toString(),
                "history",
                at,
                InstanceState.SCHEDULED,
                0,
                "earlier-node",
                at,
                InstanceOrigin.ON_DEMAND,
                null);
        assertThat(store.schedule(List.of(new NewFire(instance, "from an earlier run"))))
                .containsExactly(true);
        return instance.id();
    }

    private void change(String id, InstanceState from, InstanceState to, Instant at) {
        assertThat(store.transition(new Transition(id, from, to, 1, "earlier-node", at, from + " to " + to)))
                .isTrue();
    }
}
