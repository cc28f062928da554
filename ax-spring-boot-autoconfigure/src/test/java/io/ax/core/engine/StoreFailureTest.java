package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskInstance;
import io.ax.core.engine.writes.RecentCommitsFolder;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.RecordingExecutor;
import io.ax.test.store.FailingStore;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine against a store that fails on command: an outage of reads and writes, single failed writes, writes the
 * store refuses for good. Nothing due is lost, nothing runs twice, no series stops, and no restart is needed.
 */
class StoreFailureTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final InMemoryInstanceStore real = new InMemoryInstanceStore();
    private final FailingStore store = new FailingStore(real);
    private final RecordingExecutor executor = new RecordingExecutor();
    private final CountDownLatch release = new CountDownLatch(1);
    private AxEngine engine;

    private AxEngine start(AxTask... tasks) {
        return start(b -> {}, tasks);
    }

    private AxEngine start(java.util.function.Consumer<AxEngineBuilder> settings, AxTask... tasks) {
        AxEngineBuilder b = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .pools(Map.of())
                .shutdownAwait(Duration.ofSeconds(2));
        settings.accept(b);
        engine = b.build();
        for (AxTask task : tasks) {
            engine.register(task);
        }
        engine.start();
        return engine;
    }

    @AfterEach
    void stop() {
        release.countDown();
        store.up();
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void anOutageStopsNothingForGoodAndNeedsNoRestart() {
        start(pulse("pulse", 20));
        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= 3);

        store.down();
        await().atMost(BOUND).until(() -> engine.status().storeOutage().isPresent());
        long failedAtStart = store.failed();
        await().atMost(BOUND).until(() -> store.failed() > failedAtStart + 5); // the writer keeps trying
        int runsDuringOutage = executor.runsOf("pulse").size();

        store.up();
        await().atMost(BOUND).until(() -> engine.status().storeOutage().isEmpty());
        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= runsDuringOutage + 5);

        assertNoFireRanTwice("pulse");
        assertEveryTrailLegal("pulse");
    }

    @Test
    void memorySeriesGoOnWhileTheDatabaseIsAway() {
        start(
                task("volatile")
                        .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(20), Duration.ZERO))
                        .durability(io.ax.core.Durability.MEMORY)
                        .build(),
                pulse("pulse", 20));
        await().atMost(BOUND).until(() -> executor.runsOf("volatile").size() >= 3);

        store.down();
        await().atMost(BOUND).until(() -> engine.status().storeOutage().isPresent());
        int before = executor.runsOf("volatile").size();
        await().atMost(BOUND).until(() -> executor.runsOf("volatile").size() >= before + 10);
        assertThat(engine.status().storeOutage()).as("still away").isPresent();

        store.up();
        int pulses = executor.runsOf("pulse").size();
        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= pulses + 3);
        assertNoFireRanTwice("volatile");
        assertNoFireRanTwice("pulse");
    }

    @Test
    void singleFailedWritesAreRetriedAndANonOverlappingSeriesGoesOn() {
        start(pulse("pulse", 20));
        for (int round = 0; round < 5; round++) {
            int before = executor.runsOf("pulse").size();
            store.failWrites(2); // the next assignment, claim or end of attempt fails once or twice
            await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= before + 2);
        }
        assertNoFireRanTwice("pulse");
        assertEveryTrailLegal("pulse");
    }

    @Test
    void theEndOfAnAttemptRunningWhenTheStoreWentDownIsRecordedWhenItComesBack() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        executor.when("slow", ctx -> {
            started.countDown();
            release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            return null;
        });
        start(task("slow").build());
        String id = engine.triggerNow("slow");
        assertThat(started.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

        store.down();
        long failedBefore = store.failed();
        release.countDown();
        await().atMost(BOUND).until(() -> store.failed() > failedBefore + 2); // its SUCCESS is refused, retried
        store.up();

        await().atMost(BOUND).until(() -> real.find(id).orElseThrow().state() == InstanceState.SUCCESS);
        assertThat(executor.runsOf("slow")).hasSize(1);
    }

    @Test
    void aSeriesWhoseNextFireTheStoreRefusedForGoodIsRepairedByTheReconciliation() {
        start(b -> b.reconcileEvery(Duration.ofMillis(100)), pulse("pulse", 50));
        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= 2);

        // the next fire's write fails twice as a group, then each time alone while the store answers: given up
        store.failSchedules(2 + StateWriter.POISON_AFTER);
        await().atMost(BOUND).until(() -> engine.status().repairedSeries() >= 1);
        int afterRepair = executor.runsOf("pulse").size();
        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= afterRepair + 3);
        assertNoFireRanTwice("pulse");
    }

    @Test
    void aFixedDelaySeriesWhoseRunEndsInAnOutageGoesOnOnceTheStoreIsBackWithoutARepair() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        executor.when("delay", ctx -> {
            started.countDown();
            release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            return null;
        });
        // no reconciliation within the test: only the series' own plan can go on
        start(
                b -> b.reconcileEvery(Duration.ofHours(1)),
                task("delay")
                        .trigger(IntervalTrigger.fixedDelay(Duration.ofMillis(50), Duration.ZERO))
                        .build());
        assertThat(started.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

        store.down();
        long failedBefore = store.failed();
        release.countDown(); // it ends while the store is away: its end, and its series' next fire, wait
        await().atMost(BOUND).until(() -> store.failed() > failedBefore + 3);
        store.up();

        await("the series goes on")
                .atMost(BOUND)
                .until(() -> executor.runsOf("delay").size() >= 4);
        assertThat(engine.status().repairedSeries()).isZero();
        assertNoFireRanTwice("delay");
    }

    @Test
    void aStartThatFailsLeavesWhatItsApiAcceptedMeanwhileToTheOtherNodes(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path folder) throws Exception {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .pools(Map.of())
                .recentCommitsFolder(folder)
                .build();
        engine.register(task("later").build());
        // accepted while the engine starts (a web server answers before it is up), then the store goes away
        String id = engine.schedule(io.ax.core.ScheduleRequest.of("later").after(Duration.ofMinutes(5)));
        store.down();

        assertThatThrownBy(engine::start).isInstanceOf(RuntimeException.class);

        List<RecentCommitsFolder.Left> left =
                new RecentCommitsFolder(folder).take(Instant.now(), Duration.ofMinutes(2), Duration.ofMinutes(1), null);
        assertThat(left).hasSize(1);
        assertThat(left.get(0).graceful()).isTrue();
        assertThat(left.get(0).commits())
                .extracting(io.ax.core.engine.writes.RecentCommits.Remembered::instanceId)
                .contains(id);
    }

    @Test
    void aForkedFixedDelaySeriesFoldsBackIntoOne() {
        start(task("delay")
                .trigger(IntervalTrigger.fixedDelay(Duration.ofMillis(200), Duration.ZERO))
                .build());
        await().atMost(BOUND).until(() -> executor.runsOf("delay").size() >= 2);
        // a second chain, as a takeover that planned a next fire while an earlier one was on its way leaves it
        Instant at = Instant.now().minusSeconds(2).truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        TaskInstance fork = new TaskInstance(
                "01fork00-0000-7000-8000-000000000001",
                "delay",
                at,
                InstanceState.SCHEDULED,
                0,
                "elsewhere",
                at,
                io.ax.core.InstanceOrigin.SERIES,
                TaskInstance.fireKey(at));
        real.schedule(List.of(new io.ax.core.store.NewFire(fork, "a second chain")));
        await().atMost(BOUND).until(() -> real.find(fork.id()).orElseThrow().state() == InstanceState.SUCCESS);

        int from = executor.runsOf("delay").size();
        await().atMost(BOUND).until(() -> executor.runsOf("delay").size() >= from + 8);
        List<Instant> times = executor.runsOf("delay").stream()
                .skip(from + 2) // a chain ends at most once more after the fork's run
                .map(AxContext::scheduledTime)
                .sorted()
                .toList();
        for (int k = 1; k < times.size(); k++) {
            assertThat(Duration.between(times.get(k - 1), times.get(k)))
                    .as("one chain: fires at least the delay apart")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(190));
        }
    }

    @Test
    void aSlowListenerDoesNotStallScheduling() {
        CountDownLatch listening = new CountDownLatch(1);
        executor.when("doomed", ctx -> {
            throw new IllegalStateException("gone");
        });
        start(
                b -> b.onDeadLetter((AxDeadLetterEvent e) -> {
                    listening.countDown();
                    try {
                        release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }),
                task("doomed").retry(RetryPolicy.none()).build(),
                pulse("pulse", 20));
        engine.triggerNow("doomed");
        await().atMost(BOUND).until(() -> listening.getCount() == 0);

        int before = executor.runsOf("pulse").size();
        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= before + 5);
    }

    @Test
    void afterStopWritesAndOperatorActionsFailFastWithAClearError() {
        executor.when("flaky", ctx -> {
            throw new IllegalStateException("down");
        });
        start(task("flaky")
                .retry(new RetryPolicy(3, io.ax.core.Backoff.FIXED, Duration.ofHours(1), Duration.ofHours(1)))
                .build());
        String retrying = engine.triggerNow("flaky");
        await().atMost(BOUND).until(() -> real.find(retrying).orElseThrow().state() == InstanceState.RETRYING);
        engine.stop();

        long start = System.nanoTime();
        assertThatThrownBy(() -> engine.cancelWaiting(retrying))
                .isInstanceOf(AxException.class)
                .hasMessageContaining("stopped");
        assertThatThrownBy(() -> engine.triggerNow("flaky")).isInstanceOf(AxException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(real.find(retrying).orElseThrow().state()).isEqualTo(InstanceState.RETRYING);
    }

    private static AxTask pulse(String name, int everyMillis) {
        return task(name)
                .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(everyMillis), Duration.ZERO))
                .concurrent(false)
                .build();
    }

    private static AxTask.Builder task(String name) {
        return AxTask.builder(name).target("test." + name).timeout(Duration.ofSeconds(20));
    }

    private void assertNoFireRanTwice(String task) {
        Set<Instant> seen = new HashSet<>();
        for (AxContext run : executor.runsOf(task)) {
            assertThat(seen.add(run.scheduledTime()))
                    .as("fire time %s ran once", run.scheduledTime())
                    .isTrue();
        }
        Set<Instant> stored = new HashSet<>();
        for (TaskInstance i : real.findByTask(task, 100_000)) {
            assertThat(stored.add(i.scheduledTime()))
                    .as("one instance for fire time %s", i.scheduledTime())
                    .isTrue();
        }
    }

    private void assertEveryTrailLegal(String task) {
        for (TaskInstance i : real.findByTask(task, 100_000)) {
            List<AuditEntry> trail = real.auditTrail(i.id());
            for (int k = 1; k < trail.size(); k++) {
                assertThat(trail.get(k).from())
                        .as("audit trail of %s follows on", i.id())
                        .isEqualTo(trail.get(k - 1).to());
                assertThat(trail.get(k - 1).to().canMoveTo(trail.get(k).to()))
                        .as(
                                "%s -> %s is legal",
                                trail.get(k - 1).to(), trail.get(k).to())
                        .isTrue();
            }
        }
    }
}
