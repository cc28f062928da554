package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxDeadLetterEvent;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.DeadLetter;
import io.ax.core.IllegalTransitionException;
import io.ax.core.InstanceState;
import io.ax.core.Operator;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskInstance;
import io.ax.core.UnknownInstanceException;
import io.ax.core.UnknownTaskException;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.trigger.CronTrigger;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What an operator does to a running engine beyond the scheduler's calls: cancel what waits, replay the dead. */
class OperationsTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private final List<AxDeadLetterEvent> deadLetters = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private AxEngine engine;

    @AfterEach
    void stop() {
        release.countDown();
        if (engine != null) {
            engine.stop();
        }
    }

    private AxEngine start(AxTask... tasks) {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .shutdownAwait(Duration.ofSeconds(2))
                .onDeadLetter(deadLetters::add)
                .build();
        for (AxTask task : tasks) {
            engine.register(task);
        }
        engine.start();
        return engine;
    }

    @Test
    void pausingOrResumingAnUnknownTaskIsAClearError() {
        AxEngine e = start();
        assertThatThrownBy(() -> e.pause("nope"))
                .isInstanceOf(UnknownTaskException.class)
                .hasMessage("Unknown task 'nope'");
        assertThatThrownBy(() -> e.resume("nope")).isInstanceOf(UnknownTaskException.class);
    }

    @Test
    void aScheduledFireIsCancelledAndAudited() {
        AxEngine e = start(task("yearly")
                .trigger(CronTrigger.of("0 0 0 1 1 ? 2099", ZoneOffset.UTC))
                .build());
        TaskInstance pending = only("yearly", InstanceState.SCHEDULED);

        TaskInstance cancelled = e.cancelWaiting(pending.id()).instance();

        assertThat(cancelled.state()).isEqualTo(InstanceState.CANCELLED);
        assertThat(store.auditTrail(pending.id())).last().satisfies(a -> {
            assertThat(a.from()).isEqualTo(InstanceState.SCHEDULED);
            assertThat(a.to()).isEqualTo(InstanceState.CANCELLED);
            assertThat(a.reason()).isEqualTo("cancelled by operator");
            assertThat(a.node()).isEqualTo("node-a");
        });
    }

    @Test
    void everyOperatorActionNamesWhoAskedInTheAuditTrail() {
        Operator alice = new Operator("alice", "10.0.0.7");
        AxEngine e = start(
                task("paced")
                        .trigger(IntervalTrigger.fixedDelay(Duration.ofHours(1), Duration.ofHours(1)))
                        .build(),
                task("doomed").build());
        executor.when("doomed", ctx -> {
            throw new IllegalStateException("down");
        });

        e.pause("paced", alice);
        assertThat(store.findByTask("paced", 10))
                .singleElement()
                .satisfies(i -> assertThat(store.auditTrail(i.id()))
                        .last()
                        .extracting(AuditEntry::reason)
                        .isEqualTo("task paused by operator 'alice' from 10.0.0.7; its series goes on when it is"
                                + " resumed"));
        e.resume("paced", new Operator("bob", null));
        await().atMost(BOUND)
                .until(() ->
                        store.findByTask("paced", 10).stream().anyMatch(i -> i.state() == InstanceState.SCHEDULED));
        TaskInstance next = only("paced", InstanceState.SCHEDULED);
        assertThat(store.auditTrail(next.id()).get(0).reason()).startsWith("resumed by operator 'bob'; fire time of");
        assertThat(e.cancelWaiting(next.id(), alice).auditTrail())
                .last()
                .extracting(AuditEntry::reason)
                .isEqualTo("cancelled by operator 'alice' from 10.0.0.7");

        String id = e.triggerNow("doomed", alice);
        assertThat(store.auditTrail(id).get(0).reason())
                .isEqualTo("triggered on demand by operator 'alice' from 10.0.0.7");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(e.replay(id, new Operator("eve\nINFO forged", "10.0.0.9")).auditTrail())
                .last()
                .extracting(AuditEntry::reason)
                .as("a name cannot start a line of its own")
                .isEqualTo("replayed by operator 'eve?INFO forged' from 10.0.0.9: a new cycle of attempts");
    }

    @Test
    void cancellingAFixedDelayFireLetsTheSeriesGoOn() {
        AxEngine e = start(task("paced")
                .trigger(IntervalTrigger.fixedDelay(Duration.ofHours(1), Duration.ofHours(1)))
                .build());
        TaskInstance pending = only("paced", InstanceState.SCHEDULED);

        e.cancelWaiting(pending.id());

        await().atMost(BOUND)
                .until(() ->
                        store.findByTask("paced", 10).stream().anyMatch(i -> i.state() == InstanceState.SCHEDULED));
        assertThat(only("paced", InstanceState.SCHEDULED).id()).isNotEqualTo(pending.id());
    }

    @Test
    void anInstanceWaitingForItsRetryIsCancelledAndNotRunAgain() {
        executor.when("flaky", ctx -> {
            throw new IllegalStateException("down");
        });
        AxEngine e = start(task("flaky")
                .retry(new RetryPolicy(3, Backoff.FIXED, Duration.ofHours(1), Duration.ofHours(1)))
                .build());
        String id = e.triggerNow("flaky");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.RETRYING);

        assertThat(e.cancelWaiting(id).instance().state()).isEqualTo(InstanceState.CANCELLED);
        assertThat(store.auditTrail(id)).last().extracting(AuditEntry::reason).isEqualTo("cancelled by operator");
        assertThat(executor.runsOf("flaky")).hasSize(1);
    }

    @Test
    void aRunningOrFinishedInstanceCannotBeCancelled() {
        executor.when("busy", ctx -> {
            release.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return AxResult.success();
        });
        AxEngine e = start(task("busy").build(), task("quick").build());
        String running = e.triggerNow("busy");
        await().atMost(BOUND).until(() -> state(running) == InstanceState.RUNNING);
        assertThatThrownBy(() -> e.cancelWaiting(running))
                .isInstanceOf(IllegalTransitionException.class)
                .hasMessageContaining("RUNNING -> CANCELLED");
        String done = e.triggerNow("quick");
        await().atMost(BOUND).until(() -> state(done) == InstanceState.SUCCESS);
        assertThatThrownBy(() -> e.cancelWaiting(done)).isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> e.cancelWaiting("no-such-id"))
                .isInstanceOf(UnknownInstanceException.class)
                .hasMessage("Unknown instance 'no-such-id'");
    }

    @Test
    void aReplayedDeadLetterRunsANewCycleOfAttemptsOfTheSameInstance() {
        AtomicBoolean healed = new AtomicBoolean();
        executor.when("doomed", ctx -> {
            if (!healed.get()) {
                throw new IllegalStateException("downstream gone (attempt " + ctx.attempt() + ")");
            }
            return AxResult.success();
        });
        AxEngine e = start(task("doomed").retry(retryOnce()).build());
        String id = e.triggerNow("doomed");
        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD && store.deadLetterCount() == 1);

        healed.set(true);
        TaskInstance replayed = e.replay(id).instance();

        assertThat(replayed.id()).isEqualTo(id);
        assertThat(replayed.attempt()).isZero();
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("doomed")).extracting(AxContext::instanceId).containsOnly(id);
        assertThat(executor.runsOf("doomed")).extracting(AxContext::attempt).containsExactly(1, 2, 1);
        assertThat(store.deadLetterCount()).isZero();
        List<AuditEntry> trail = store.auditTrail(id);
        assertThat(trail)
                .filteredOn(a -> a.from() == InstanceState.DEAD)
                .singleElement()
                .satisfies(a -> {
                    assertThat(a.to()).isEqualTo(InstanceState.RETRYING);
                    assertThat(a.reason()).startsWith("replayed by operator");
                });
        assertThat(trail.get(trail.size() - 1).to()).isEqualTo(InstanceState.SUCCESS);
    }

    @Test
    void aReplayThatDiesAgainLeavesOneNewDeadLetterWithEveryError() {
        executor.when("doomed", ctx -> {
            throw new IllegalStateException("still gone " + ctx.attempt());
        });
        AxEngine e = start(task("doomed").retry(retryOnce()).build());
        String id = e.triggerNow("doomed");
        await().atMost(BOUND).until(() -> deadLetters.size() == 1);

        e.replay(id);

        await().atMost(BOUND).until(() -> deadLetters.size() == 2);
        assertThat(state(id)).isEqualTo(InstanceState.DEAD);
        assertThat(store.deadLetters(0, 10)).singleElement().satisfies((DeadLetter d) -> {
            assertThat(d.instanceId()).isEqualTo(id);
            assertThat(d.attempts()).hasSize(4);
        });
    }

    @Test
    void onlyTheDeadCanBeReplayed() {
        AxEngine e = start(task("quick").build());
        String done = e.triggerNow("quick");
        await().atMost(BOUND).until(() -> state(done) == InstanceState.SUCCESS);
        assertThatThrownBy(() -> e.replay(done))
                .isInstanceOf(IllegalTransitionException.class)
                .hasMessageContaining("SUCCESS -> RETRYING");
        assertThatThrownBy(() -> e.replay("no-such-id")).isInstanceOf(UnknownInstanceException.class);
    }

    private TaskInstance only(String task, InstanceState state) {
        return store.findByTask(task, 10).stream()
                .filter(i -> i.state() == state)
                .reduce((a, b) -> {
                    throw new AssertionError("more than one " + state + " instance of " + task);
                })
                .orElseThrow();
    }

    private static RetryPolicy retryOnce() {
        return new RetryPolicy(1, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10));
    }

    private static AxTask.Builder task(String name) {
        return AxTask.builder(name).target("test." + name).timeout(Duration.ofSeconds(20));
    }

    private InstanceState state(String id) {
        return store.find(id).map(TaskInstance::state).orElse(null);
    }
}
