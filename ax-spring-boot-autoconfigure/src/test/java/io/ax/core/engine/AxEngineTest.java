package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxException;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.DeadLetter;
import io.ax.core.InstanceState;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskInstance;
import io.ax.core.UnknownTaskException;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AxEngineTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private final List<AxDeadLetterEvent> deadLetters = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private AxEngine engine;

    private AxEngine engine(Map<String, PoolSettings> pools) {
        return engine(pools, executor);
    }

    private AxEngine engine(Map<String, PoolSettings> pools, AxExecutor executor) {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .pools(pools)
                .rejectionBackoff(Duration.ofMillis(50))
                .shutdownAwait(Duration.ofSeconds(2))
                .onDeadLetter(deadLetters::add)
                .build();
        return engine;
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void firesAFixedRateTaskAgainAndAgain() {
        AxEngine e = engine(Map.of());
        e.register(task("pulse")
                .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(30), Duration.ZERO))
                .build());
        e.start();
        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= 3);
        List<AxContext> runs = executor.runsOf("pulse").stream()
                .sorted(Comparator.comparing(AxContext::scheduledTime))
                .toList();
        // each run is a fire of the rate: one period after the previous run's, or whole periods when a fire found
        // the previous run still going (this task does not overlap itself) and was skipped, as on a loaded machine
        Duration between =
                Duration.between(runs.get(0).scheduledTime(), runs.get(1).scheduledTime());
        assertThat(between).isPositive();
        assertThat(between.toNanos() % Duration.ofMillis(30).toNanos()).isZero();
        assertThat(runs.get(0).nodeId()).isEqualTo("node-a");
        await().atMost(BOUND).until(() -> state(runs.get(0).instanceId()) == InstanceState.SUCCESS);
        assertThat(states(runs.get(0).instanceId()))
                .containsExactly(
                        InstanceState.CREATED, InstanceState.SCHEDULED, InstanceState.RUNNING, InstanceState.SUCCESS);
    }

    @Test
    void tasksThatShareATriggerShareOneWheelEntry() {
        AxEngine e = engine(Map.of());
        CronTrigger everyHalfMinute = CronTrigger.of("0/30 * * * * ?", ZoneOffset.UTC);
        e.register(task("a").trigger(everyHalfMinute).build());
        e.register(task("b").trigger(everyHalfMinute).build());
        e.register(task("c")
                .trigger(CronTrigger.of("15/30 * * * * ?", ZoneOffset.UTC))
                .build());
        e.start();
        assertThat(e.status().wheelSize()).isEqualTo(2);
    }

    @Test
    void firesBeyondThePrefetchWindowWaitInTheStoreNotInTheWheel() {
        AxEngine e = engine(Map.of());
        e.register(task("far")
                .trigger(CronTrigger.of("0 0 0 1 1 ? 2099", ZoneOffset.UTC))
                .build());
        e.start();
        assertThat(e.status().wheelSize()).isZero();
        assertThat(store.findByStates(EnumSet.of(InstanceState.SCHEDULED), 10))
                .singleElement()
                .satisfies(i -> assertThat(i.taskName()).isEqualTo("far"));
    }

    @Test
    void tasksThatShareATriggerFireAsOneBatch() {
        AxEngine e = engine(Map.of());
        CronTrigger everySecond = CronTrigger.of("* * * * * ?", ZoneOffset.UTC);
        e.register(task("left").trigger(everySecond).build());
        e.register(task("right").trigger(everySecond).build());
        e.start();
        await().atMost(BOUND)
                .until(() -> !executor.runsOf("left").isEmpty()
                        && !executor.runsOf("right").isEmpty());
        assertThat(executor.runsOf("left").get(0).scheduledTime())
                .isEqualTo(executor.runsOf("right").get(0).scheduledTime());
    }

    @Test
    void aTimeoutInterruptsTheWorkAndFreesThePoolThread() {
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch never = new CountDownLatch(1);
        executor.when("sleeper", ctx -> {
            try {
                never.await(30, TimeUnit.SECONDS); // stands for work that only an interrupt stops
            } catch (InterruptedException ie) {
                interrupted.set(true);
                throw ie;
            }
            return AxResult.success();
        });
        AxEngine e = engine(Map.of("solo", new PoolSettings(1, 0)));
        e.register(task("sleeper").group("solo").timeout(Duration.ofMillis(200)).build());
        e.register(task("quick").group("solo").build());
        e.start();
        String id = e.triggerNow("sleeper");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(interrupted).isTrue();
        assertThat(store.auditTrail(id)).anySatisfy(a -> {
            assertThat(a.to()).isEqualTo(InstanceState.TIMEOUT);
            assertThat(a.reason()).contains("timed out after PT0.2S");
        });
        String quick = await().atMost(BOUND)
                .until(() -> tryTrigger(e, "quick"), Optional::isPresent)
                .orElseThrow();
        await().atMost(BOUND).until(() -> state(quick) == InstanceState.SUCCESS);
    }

    @Test
    void aFailedInstanceIsRetriedWithExponentialBackoffUnderTheSameId() {
        executor.when("flaky", ctx -> {
            if (ctx.attempt() < 3) {
                throw new IllegalStateException("attempt " + ctx.attempt());
            }
            return AxResult.success();
        });
        AxEngine e = engine(Map.of());
        e.register(task("flaky")
                .retry(new RetryPolicy(5, Backoff.EXPONENTIAL, Duration.ofMillis(20), Duration.ofSeconds(1)))
                .build());
        e.start();
        String id = e.triggerNow("flaky");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("flaky")).extracting(AxContext::instanceId).containsOnly(id);
        assertThat(executor.runsOf("flaky")).extracting(AxContext::attempt).containsExactly(1, 2, 3);
        assertThat(store.auditTrail(id))
                .filteredOn(a -> a.to() == InstanceState.RETRYING)
                .extracting(AuditEntry::reason)
                .containsExactly("attempt 2 in PT0.02S", "attempt 3 in PT0.04S");
        assertThat(store.find(id).orElseThrow().attempt()).isEqualTo(3);
    }

    @Test
    void anInstanceWhoseRetriesAreUsedUpDiesWithADeadLetterAndAnEvent() {
        executor.when("doomed", ctx -> {
            throw new IllegalStateException("no luck " + ctx.attempt());
        });
        AxEngine e = engine(Map.of());
        e.register(task("doomed")
                .params(Map.of("order", "42"))
                .retry(new RetryPolicy(2, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)))
                .build());
        e.start();
        String id = e.triggerNow("doomed");
        await().atMost(BOUND).until(() -> store.deadLetterCount() == 1 && deadLetters.size() == 1);
        assertThat(state(id)).isEqualTo(InstanceState.DEAD);
        DeadLetter letter = store.deadLetters(0, 1).get(0);
        assertThat(letter.instanceId()).isEqualTo(id);
        assertThat(letter.params()).containsEntry("order", "42");
        assertThat(letter.attempts())
                .extracting(a -> a.attempt() + ":" + a.error())
                .containsExactly(
                        "1:java.lang.IllegalStateException: no luck 1",
                        "2:java.lang.IllegalStateException: no luck 2",
                        "3:java.lang.IllegalStateException: no luck 3");
        assertThat(letter.lastStackTrace()).contains("no luck 3").contains("at ");
        assertThat(deadLetters.get(0).deadLetter()).isEqualTo(letter);
    }

    @Test
    void aFailureResultCountsAsAFailedAttempt() {
        executor.when("polite", ctx -> AxResult.failure("upstream said no"));
        AxEngine e = engine(Map.of());
        e.register(task("polite").build());
        e.start();
        String id = e.triggerNow("polite");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(store.auditTrail(id))
                .anySatisfy(a -> assertThat(a.reason()).isEqualTo("returned failure: upstream said no"));
    }

    @Test
    void aFireThatFindsThePreviousInstanceRunningIsSkipped() {
        executor.when("long", ctx -> {
            release.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return AxResult.success();
        });
        AxEngine e = engine(Map.of());
        e.register(task("long")
                .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(20), Duration.ZERO))
                .build());
        e.start();
        await().atMost(BOUND)
                .until(() -> store.findByTask("long", 100).stream().anyMatch(i -> i.state() == InstanceState.SKIPPED));
        String running = executor.runsOf("long").get(0).instanceId();
        TaskInstance skipped = store.findByTask("long", 100).stream()
                .filter(i -> i.state() == InstanceState.SKIPPED)
                .findFirst()
                .orElseThrow();
        assertThat(store.auditTrail(skipped.id()))
                .last()
                .satisfies(a -> assertThat(a.reason()).contains(running).contains("has not finished"));
        assertThat(executor.runsOf("long")).hasSize(1);
    }

    @Test
    void aFireThatMeetsItsPreviousInstanceEndingHereWaitsForTheEndInsteadOfBeingSkipped() {
        // the first instance's worker holds on between its SUCCESS and freeing the task's slot (in onSuccess) until
        // the next fire has met the slot still taken: that fire must wait the moment out, not be SKIPPED as
        // overlapping an instance that has ended
        AtomicReference<String> first = new AtomicReference<>();
        AxExecutor holdingOn = new AxExecutor() {
            @Override
            public boolean matchTaskType(String taskType) {
                return executor.matchTaskType(taskType);
            }

            @Override
            public AxResult execute(AxTask task, AxContext context) throws Exception {
                first.compareAndSet(null, context.instanceId());
                return executor.execute(task, context);
            }

            @Override
            public void onSuccess(AxTask task, AxContext context, AxResult result) {
                if (context.instanceId().equals(first.get())) {
                    await().atMost(BOUND)
                            .until(() -> engine.parts().dispatcher.awaitsEnd("tick")
                                    || !skipped("tick").isEmpty());
                }
            }
        };
        AxEngine e = engine(Map.of(), holdingOn);
        e.register(task("tick")
                .trigger(IntervalTrigger.fixedRate(Duration.ofMillis(300), Duration.ZERO))
                .build());
        e.start();
        await().atMost(BOUND).until(() -> executor.runsOf("tick").size() >= 3);

        assertThat(skipped("tick"))
                .as("fires skipped though their previous instance had ended")
                .isEmpty();
        List<AxContext> runs = executor.runsOf("tick");
        assertThat(runs.get(0).instanceId()).isEqualTo(first.get());
        assertThat(Duration.between(runs.get(0).scheduledTime(), runs.get(1).scheduledTime()))
                .as("the fire that waited is the next of the series")
                .isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void concurrentTasksMayOverlap() {
        CountDownLatch both = new CountDownLatch(2);
        executor.when("wide", ctx -> {
            both.countDown();
            both.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return AxResult.success();
        });
        AxEngine e = engine(Map.of());
        e.register(task("wide").concurrent(true).build());
        e.start();
        String first = e.triggerNow("wide");
        String second = e.triggerNow("wide");
        await().atMost(BOUND)
                .until(() -> state(first) == InstanceState.SUCCESS && state(second) == InstanceState.SUCCESS);
    }

    @Test
    void anInstanceThatFindsItsPoolFullWaitsScheduledAndRunsLater() {
        executor.when("hog", ctx -> {
            release.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return AxResult.success();
        });
        AxEngine e = engine(Map.of("tiny", new PoolSettings(1, 0)));
        e.register(task("hog").group("tiny").concurrent(true).build());
        e.start();
        String first = e.triggerNow("hog");
        await().atMost(BOUND).until(() -> state(first) == InstanceState.RUNNING);
        String second = e.triggerNow("hog");
        // it is not claimed while the pool is full: no node holds a place it cannot use
        assertThat(store.auditTrail(second)).extracting(a -> a.to()).doesNotContain(InstanceState.RUNNING);
        release.countDown();
        await().atMost(BOUND)
                .until(() -> state(first) == InstanceState.SUCCESS && state(second) == InstanceState.SUCCESS);
    }

    @Test
    void aTaskThatThrowsAnErrorDoesNotKillTheEngine() {
        executor.when("bad", ctx -> {
            throw new AssertionError("not an exception");
        });
        AxEngine e = engine(Map.of("one", new PoolSettings(1, 10)));
        e.register(task("bad").group("one").build());
        e.register(task("good").group("one").build());
        e.start();
        String bad = e.triggerNow("bad");
        await().atMost(BOUND).until(() -> state(bad) == InstanceState.DEAD);
        String good = e.triggerNow("good");
        await().atMost(BOUND).until(() -> state(good) == InstanceState.SUCCESS);
    }

    @Test
    void aThrowingDeadLetterListenerDoesNotStopTheEngine() {
        executor.when("doomed", ctx -> {
            throw new IllegalStateException("x");
        });
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .onDeadLetter(ev -> {
                    throw new IllegalStateException("listener broke");
                })
                .onDeadLetter(deadLetters::add)
                .build();
        engine.register(task("doomed").build());
        engine.register(task("after").build());
        engine.start();
        engine.triggerNow("doomed");
        await().atMost(BOUND).until(() -> deadLetters.size() == 1);
        String after = engine.triggerNow("after");
        await().atMost(BOUND).until(() -> state(after) == InstanceState.SUCCESS);
    }

    @Test
    void aFixedDelayCountsFromTheEndOfThePreviousRun() {
        AxEngine e = engine(Map.of());
        e.register(task("paced")
                .trigger(IntervalTrigger.fixedDelay(Duration.ofMillis(40), Duration.ZERO))
                .build());
        e.start();
        await().atMost(BOUND).until(() -> executor.runsOf("paced").size() >= 2);
        AxContext first = executor.runsOf("paced").get(0);
        AxContext second = executor.runsOf("paced").get(1);
        AuditEntry firstEnd = store.auditTrail(first.instanceId()).stream()
                .filter(a -> a.to() == InstanceState.SUCCESS)
                .findFirst()
                .orElseThrow();
        assertThat(second.scheduledTime()).isAfterOrEqualTo(firstEnd.at().plusMillis(40));
    }

    @Test
    void badRequestsGetClearErrors() {
        AxEngine e = engine(Map.of());
        e.register(task("known").build());
        assertThatThrownBy(() -> e.triggerNow("known"))
                .isInstanceOf(AxException.class)
                .hasMessageContaining("not running");
        e.start();
        assertThatThrownBy(() -> e.triggerNow("nope"))
                .isInstanceOf(UnknownTaskException.class)
                .hasMessage("Unknown task 'nope'");
        assertThatThrownBy(() -> e.register(task("known").build()))
                .isInstanceOf(AxException.class)
                .hasMessageContaining("already registered");
        assertThatThrownBy(
                        () -> e.register(task("remote").type("CARRIER_PIGEON").build()))
                .isInstanceOf(AxException.class)
                .hasMessageContaining("CARRIER_PIGEON");
    }

    private static AxTask.Builder task(String name) {
        return AxTask.builder(name).target("test." + name).timeout(Duration.ofSeconds(20));
    }

    private static Optional<String> tryTrigger(AxEngine e, String name) {
        return Optional.of(e.triggerNow(name));
    }

    private List<TaskInstance> skipped(String taskName) {
        return store.findByTask(taskName, 100).stream()
                .filter(i -> i.state() == InstanceState.SKIPPED)
                .toList();
    }

    private InstanceState state(String id) {
        return store.find(id).map(TaskInstance::state).orElse(null);
    }

    private List<InstanceState> states(String id) {
        return store.auditTrail(id).stream().map(AuditEntry::to).toList();
    }
}
