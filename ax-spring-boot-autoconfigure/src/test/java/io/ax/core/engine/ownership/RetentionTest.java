package io.ax.core.engine.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.EngineObserver;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.RetentionSettings;
import io.ax.core.engine.insight.Insight;
import io.ax.core.store.ActivityRow;
import io.ax.core.store.InMemoryActivityStore;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.test.FakeClock;
import io.ax.test.RecordingExecutor;
import io.ax.test.store.PlainStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The engine's retention: on the leader only, following leadership from node to node, counted for the meter, and
 * through a database outage with one WARN line. Time is a fake clock: the history is days old by it.
 */
class RetentionTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final RetentionSettings EVERY_FEW_MS =
            new RetentionSettings(true, Duration.ofDays(7), Duration.ofDays(30), Duration.ofMillis(10), 4);

    private final FakeClock clock = new FakeClock(T0.plus(Duration.ofDays(8)));
    private final List<AxEngine> engines = new ArrayList<>();
    private final List<Retention> retentions = new ArrayList<>();
    private final InMemoryActivityStore activity = new InMemoryActivityStore();

    @AfterEach
    void stopAll() {
        engines.forEach(AxEngine::stop);
        retentions.forEach(Retention::stop);
    }

    @Test
    void onlyTheLeaderDeletesAndCountsAndTheNextLeaderTakesOver() {
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        List<String> first = finishedLongAgo(store, 10);
        AtomicLong countedByA = new AtomicLong();
        AtomicLong countedByB = new AtomicLong();
        AxEngine a = engine(store, "node-a", countedByA);
        a.start();
        AxEngine b = engine(store, "node-b", countedByB);
        b.start();
        assertThat(a.status().cluster().isLeader()).isTrue();
        assertThat(b.status().cluster().isLeader()).isFalse();

        await().atMost(BOUND).until(() -> countedByA.get() == first.size());
        assertThat(first).allSatisfy(id -> assertThat(store.find(id)).isEmpty());
        assertThat(countedByB.get()).as("a follower deletes nothing").isZero();

        a.stop();
        await().atMost(BOUND).until(() -> b.status().cluster().isLeader());
        List<String> second = finishedLongAgo(store, 6);
        await().atMost(BOUND).until(() -> countedByB.get() == second.size());
        assertThat(second).allSatisfy(id -> assertThat(store.find(id)).isEmpty());
        assertThat(countedByA.get()).isEqualTo(first.size());
    }

    @Test
    void keepsWhatIsYoungerThanItsRetentionByTheInjectedClock() {
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        List<String> old = finishedLongAgo(store, 3);
        String young = finished(store, clock.instant().minus(Duration.ofDays(6)));
        AtomicLong counted = new AtomicLong();
        engine(store, "node-a", counted).start();

        await().atMost(BOUND).until(() -> counted.get() == old.size());
        assertThat(store.find(young)).isPresent();

        clock.advance(Duration.ofDays(2)); // now 8 days after it finished
        await().atMost(BOUND).until(() -> store.find(young).isEmpty());
        assertThat(counted.get()).isEqualTo(old.size() + 1);
    }

    @Test
    void logsAnOutageOnceAtWarningGoesOnTryingAndSaysWhenItWorksAgain() {
        Logger log = (Logger) LoggerFactory.getLogger(AxEngine.class.getName());
        ListAppender<ILoggingEvent> captured = new ListAppender<>();
        captured.start();
        log.addAppender(captured);
        try {
            InMemoryInstanceStore store = new InMemoryInstanceStore();
            AtomicBoolean down = new AtomicBoolean(true);
            AtomicInteger calls = new AtomicInteger();
            AtomicLong counted = new AtomicLong();
            Retention retention = retention(failingWhile(store, down, calls), counted);
            finishedLongAgo(store, 3);
            retention.start();

            await().atMost(BOUND).until(() -> calls.get() >= 5);
            assertThat(warnings(captured)).singleElement().asString().contains("database is down");

            down.set(false);
            await().atMost(BOUND).until(() -> counted.get() == 3);
            await().atMost(BOUND).until(() -> infos(captured).contains("Retention deletes old history again"));

            down.set(true);
            int before = calls.get();
            await().atMost(BOUND).until(() -> calls.get() >= before + 3);
            assertThat(warnings(captured))
                    .as("a second outage is logged again, once")
                    .hasSize(2);
        } finally {
            log.detachAppender(captured);
        }
    }

    @Test
    void doesNothingWhileThisNodeDoesNotLead() {
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        List<String> old = finishedLongAgo(store, 3);
        AtomicLong counted = new AtomicLong();
        Retention retention =
                new Retention(store, new InMemoryActivityStore(), EVERY_FEW_MS, clock, () -> 0, insight(counted));

        assertThat(retention.deleteBatch()).isZero();
        assertThat(old).allSatisfy(id -> assertThat(store.find(id)).isPresent());
        assertThat(counted.get()).isZero();
    }

    @Test
    void theActivityRollupIsKeptTwoDaysAndDeletedInBatches() {
        Instant now = clock.instant();
        Instant threeDaysAgo = now.minus(Duration.ofDays(3)).truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        Instant yesterday = now.minus(Duration.ofDays(1)).truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        List<ActivityRow> rows = new ArrayList<>();
        for (int m = 0; m < 6; m++) {
            rows.add(row(threeDaysAgo.plus(Duration.ofMinutes(m))));
        }
        rows.add(row(yesterday));
        activity.save(rows);
        Retention retention = retention(new InMemoryInstanceStore(), new AtomicLong());

        assertThat(retention.deleteBatch()).as("a full batch of 4").isEqualTo(4);
        assertThat(retention.deleteBatch()).isEqualTo(2);
        assertThat(retention.deleteBatch()).isZero();

        assertThat(activity.find(ActivityRow.ALL_TASKS, threeDaysAgo, now))
                .extracting(ActivityRow::minute)
                .containsExactly(yesterday);
    }

    private static ActivityRow row(Instant minute) {
        return new ActivityRow(minute, ActivityRow.ALL_TASKS, "n1", "w1", 1, 1, 0, 0, 0, "");
    }

    // ---- helpers ------------------------------------------------------------------------------------------

    private AxEngine engine(InstanceStore store, String node, AtomicLong counted) {
        AxEngine engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(new RecordingExecutor())))
                .clock(clock)
                .nodeId(node)
                .shutdownAwait(Duration.ofSeconds(1))
                .retention(EVERY_FEW_MS)
                .observer(counter(counted))
                .build();
        engines.add(engine);
        return engine;
    }

    private Retention retention(InstanceStore store, AtomicLong counted) {
        Retention retention = new Retention(store, activity, EVERY_FEW_MS, clock, () -> 1, insight(counted));
        retentions.add(retention);
        return retention;
    }

    private Insight insight(AtomicLong counted) {
        return new Insight(List.of(counter(counted)), clock);
    }

    private static EngineObserver counter(AtomicLong counted) {
        return new EngineObserver() {
            @Override
            public void retentionDeleted(int count) {
                counted.addAndGet(count);
            }
        };
    }

    /** {@code store}, failing every call to delete while {@code down} holds, as a store whose database is down. */
    private static InstanceStore failingWhile(InstanceStore store, AtomicBoolean down, AtomicInteger calls) {
        return PlainStore.of(store, (method, args) -> {
            if (method.equals("deleteFinished")) {
                calls.incrementAndGet();
                if (down.get()) {
                    throw new IllegalStateException("the database is down");
                }
            }
        });
    }

    /** {@code n} instances that finished (SUCCESS) eight days ago by the fake clock. */
    private List<String> finishedLongAgo(InstanceStore store, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(finished(store, clock.instant().minus(Duration.ofDays(8))));
        }
        return ids;
    }

    private static String finished(InstanceStore store, Instant at) {
        String id = UUID.randomUUID().toString();
        store.create(
                new TaskInstance(
                        id,
                        "history",
                        at,
                        InstanceState.CREATED,
                        0,
                        "earlier-node",
                        at,
                        InstanceOrigin.ON_DEMAND,
                        null),
                "");
        InstanceState from = InstanceState.CREATED;
        for (InstanceState to : List.of(InstanceState.SCHEDULED, InstanceState.RUNNING, InstanceState.SUCCESS)) {
            store.transition(new Transition(id, from, to, 1, "earlier-node", at, ""));
            from = to;
        }
        return id;
    }

    private static List<String> warnings(ListAppender<ILoggingEvent> captured) {
        return messages(captured, Level.WARN);
    }

    private static List<String> infos(ListAppender<ILoggingEvent> captured) {
        return messages(captured, Level.INFO);
    }

    private static List<String> messages(ListAppender<ILoggingEvent> captured, Level level) {
        synchronized (captured) { // the appender adds under its own lock
            return captured.list.stream()
                    .filter(e ->
                            e.getLevel() == level && e.getFormattedMessage().contains("Retention"))
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }
    }
}
