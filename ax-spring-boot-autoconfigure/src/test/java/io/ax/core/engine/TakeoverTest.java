package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.engine.work.Takeovers;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.NewFire;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An attempt that ended with its node (it died, froze, was cut off, or restarted while the attempt ran) is a takeover,
 * not a failure of its handler: it runs again at once whatever the retry policy says, up to the engine's bound, and
 * uses up none of the handler's retries.
 */
class TakeoverTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String DEAD_NODE = "dead-node";
    private static final String NODE = "fresh-node";

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    /** Long before now: a dead node's attempt claimed then cannot still run there (its own watch stopped it). */
    private final Instant claimedAt = now.minusSeconds(300);

    private final AtomicInteger takenOver = new AtomicInteger();
    private final List<InstanceState> finished = new CopyOnWriteArrayList<>();
    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void anAttemptLeftRunningByADeadNodeRunsAgainOnceThoughTheTaskHasNoRetries() {
        AxTask task = onDemand("close-order", RetryPolicy.none());
        String id = instance(task);
        claim(id, InstanceState.SCHEDULED, 1, DEAD_NODE);
        start(Takeovers.DEFAULT_BOUND, task);

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("close-order"))
                .singleElement()
                .extracting(AxContext::attempt)
                .isEqualTo(2); // the fencing token moves on: a late write of attempt 1 loses
        List<AuditEntry> trail = store.auditTrail(id);
        assertThat(trail)
                .extracting(AuditEntry::to)
                .endsWith(
                        InstanceState.RUNNING,
                        InstanceState.FAILED,
                        InstanceState.RETRYING,
                        InstanceState.RUNNING,
                        InstanceState.SUCCESS);
        AuditEntry takeover =
                trail.stream().filter(AuditEntry::isTakeover).findFirst().orElseThrow();
        assertThat(takeover.reason())
                .startsWith(AuditEntry.TAKEOVER)
                .contains("node " + DEAD_NODE + " stopped heartbeating while it ran attempt 1");
        assertThat(trail.stream().filter(AuditEntry::isTakeover)).hasSize(1);
        assertThat(takenOver).hasValue(1);
        assertThat(finished).containsExactly(InstanceState.SUCCESS); // no handler failure is counted
    }

    @Test
    void aTakeoverRunsAgainAtOnceWithoutTheBackOffMeantForTheHandlersFailures() {
        AxTask task = onDemand("job", new RetryPolicy(1, Backoff.FIXED, Duration.ofHours(1), Duration.ofHours(1)));
        String id = instance(task);
        claim(id, InstanceState.SCHEDULED, 1, DEAD_NODE);
        start(Takeovers.DEFAULT_BOUND, task);

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("job")).extracting(AxContext::attempt).containsExactly(2);
    }

    @Test
    void anInstanceWhoseTakeoversAreUsedUpIsDeadWithTheReason() {
        AxTask task = onDemand("job", new RetryPolicy(5, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)));
        String id = instance(task);
        // attempt 1 was taken over once already; attempt 2 is left RUNNING by another node that died
        claim(id, InstanceState.SCHEDULED, 1, "n1");
        move(id, InstanceState.RUNNING, InstanceState.FAILED, 1, AuditEntry.TAKEOVER + "node n1 is gone");
        move(id, InstanceState.FAILED, InstanceState.RETRYING, 1, "attempt 2 now");
        claim(id, InstanceState.RETRYING, 2, DEAD_NODE);
        start(1, task);

        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(executor.runsOf("job")).isEmpty(); // the handler's 5 retries do not run a crash loop again
        List<AuditEntry> trail = store.auditTrail(id);
        assertThat(trail.get(trail.size() - 1).reason())
                .startsWith("takeovers used up")
                .contains("2 time(s), at most 1");
        assertThat(store.deadLetters(0, 10))
                .singleElement()
                .satisfies(d -> assertThat(d.attempts())
                        .extracting(a -> a.error())
                        .allSatisfy(e -> assertThat(e).startsWith(AuditEntry.TAKEOVER)));
    }

    @Test
    void noTakeoverRunsAgainWhenTheBoundIsZero() {
        AxTask task = onDemand("job", new RetryPolicy(2, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)));
        String id = instance(task);
        claim(id, InstanceState.SCHEDULED, 1, DEAD_NODE);
        start(0, task);

        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(executor.runsOf("job")).isEmpty();
    }

    @Test
    void takeoversUseUpNoneOfTheHandlersRetries() {
        AxTask task = onDemand("job", new RetryPolicy(2, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)));
        executor.when("job", context -> {
            throw new IllegalStateException("the handler fails");
        });
        String id = instance(task);
        claim(id, InstanceState.SCHEDULED, 1, DEAD_NODE);
        start(Takeovers.DEFAULT_BOUND, task);

        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        // attempt 1 was taken over; the handler then had its first attempt and its 2 retries
        assertThat(executor.runsOf("job")).extracting(AxContext::attempt).containsExactly(2, 3, 4);
        List<AuditEntry> trail = store.auditTrail(id);
        assertThat(trail.get(trail.size() - 1).reason())
                .isEqualTo("retries used up after 4 attempt(s), 1 of them taken over from their node");
        assertThat(finished).containsExactly(InstanceState.FAILED, InstanceState.FAILED, InstanceState.FAILED);
        assertThat(takenOver).hasValue(1);
    }

    @Test
    void aTakeoverWhoseNodeDiedBeforeItDecidedWhatFollowsStillRunsAgain() {
        AxTask task = onDemand("job", RetryPolicy.none());
        String id = instance(task);
        claim(id, InstanceState.SCHEDULED, 1, "n1");
        // n2 took attempt 1 over and died before it wrote what follows
        assertThat(store.transition(new Transition(
                        id,
                        InstanceState.RUNNING,
                        InstanceState.FAILED,
                        1,
                        DEAD_NODE,
                        claimedAt,
                        AuditEntry.TAKEOVER + "node n1 stopped heartbeating while it ran attempt 1")))
                .isTrue();
        start(Takeovers.DEFAULT_BOUND, task);

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("job")).extracting(AxContext::attempt).containsExactly(2);
    }

    @Test
    void anAttemptANodeFindsRunningWhenItStartsAgainRunsAgainAsATakeover() {
        AxTask task = onDemand("job", RetryPolicy.none());
        String id = instance(task);
        // this node's last run claimed it and was killed: the row is this node's own
        assertThat(store.transition(new Transition(
                                id,
                                InstanceState.SCHEDULED,
                                InstanceState.RUNNING,
                                1,
                                NODE,
                                now.minusSeconds(5),
                                "claimed")
                        .assignedTo(NODE, 0)))
                .isTrue();
        start(Takeovers.DEFAULT_BOUND, task);

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("job")).extracting(AxContext::attempt).containsExactly(2);
        assertThat(store.auditTrail(id))
                .filteredOn(AuditEntry::isTakeover)
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.node()).isEqualTo(NODE);
                    assertThat(e.reason()).contains("node " + NODE + " stopped while running attempt 1");
                });
    }

    @Test
    void twoAttemptsOfATaskThatMustNotOverlapTakenOverTogetherRunOneAfterTheOther() throws Exception {
        AxTask task = onDemand("job", RetryPolicy.none()); // not concurrent
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch another = new CountDownLatch(1);
        executor.when("job", context -> {
            int now = running.incrementAndGet();
            most.accumulateAndGet(now, Math::max);
            if (now > 1) {
                another.countDown();
            }
            // the first run lasts until a second starts beside it, or a second at most
            another.await(1, TimeUnit.SECONDS);
            running.decrementAndGet();
            return AxResult.success();
        });
        // a series fire and its catch-up, say: both claimed by a node that died while they ran
        String first = instance(task);
        String second = instance(task);
        claim(first, InstanceState.SCHEDULED, 1, DEAD_NODE);
        claim(second, InstanceState.SCHEDULED, 1, DEAD_NODE);
        start(Takeovers.DEFAULT_BOUND, task);

        await().atMost(BOUND)
                .until(() -> state(first) == InstanceState.SUCCESS && state(second) == InstanceState.SUCCESS);
        assertThat(most).as("attempts of the task at once").hasValue(1);
        assertThat(executor.runsOf("job")).extracting(AxContext::attempt).containsExactly(2, 2);
    }

    @Test
    void delayedTasksOfATaskThatMustNotOverlapTakenOverTogetherRunSideBySide() throws Exception {
        AxTask task = onDemand("job", RetryPolicy.none()); // not concurrent: its fires wait; its delayed tasks do not
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch both = new CountDownLatch(2);
        executor.when("job", context -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            both.countDown();
            both.await(BOUND.toMillis(), TimeUnit.MILLISECONDS); // each waits for the other to start beside it
            running.decrementAndGet();
            return AxResult.success();
        });
        String first = instance(task, InstanceOrigin.DELAYED);
        String second = instance(task, InstanceOrigin.DELAYED);
        claim(first, InstanceState.SCHEDULED, 1, DEAD_NODE);
        claim(second, InstanceState.SCHEDULED, 1, DEAD_NODE);
        start(Takeovers.DEFAULT_BOUND, task);

        // held to the task's slot, the second would wait for the first's end, and a holder whose end is never heard
        // of here (one running on another node) would keep every retry behind it waiting for good
        await().atMost(BOUND)
                .until(() -> state(first) == InstanceState.SUCCESS && state(second) == InstanceState.SUCCESS);
        assertThat(most).as("delayed tasks of the task at once").hasValue(2);
    }

    @Test
    void aFixedDelaySeriesWhoseFireADeadNodeLeftRunningGoesOnFromItsRerunsEndNotFromTheTakeover() {
        Duration delay = Duration.ofSeconds(1);
        AxTask task = AxTask.builder("spaced")
                .timeout(Duration.ofSeconds(5))
                .retry(RetryPolicy.none())
                .trigger(io.ax.core.trigger.IntervalTrigger.fixedDelay(delay, Duration.ZERO))
                .build();
        Instant fire = now.minusSeconds(600);
        String left = UUID.randomUUID().toString();
        TaskInstance leftRunning = new TaskInstance(
                left,
                task.name(),
                fire,
                InstanceState.SCHEDULED,
                0,
                DEAD_NODE,
                fire,
                InstanceOrigin.SERIES,
                TaskInstance.fireKey(fire));
        assertThat(store.schedule(List.of(new NewFire(leftRunning, "seeded")))).containsExactly(true);
        claim(left, InstanceState.SCHEDULED, 1, DEAD_NODE);
        start(Takeovers.DEFAULT_BOUND, task);

        await().atMost(BOUND).until(() -> state(left) == InstanceState.SUCCESS && next(task, left) != null);
        Instant rerunStarted = store.auditTrail(left).stream()
                .filter(e -> e.to() == InstanceState.RUNNING && e.attempt() == 2)
                .findFirst()
                .orElseThrow()
                .at();
        assertThat(next(task, left).scheduledTime())
                .as("the next fire: a delay after the rerun, not after the move that found the fire running")
                .isAfterOrEqualTo(rerunStarted.plus(delay));
        assertThat(store.findByTask(task.name(), 20))
                .as("one series")
                .filteredOn(i -> !i.id().equals(left) && i.scheduledTime().isBefore(rerunStarted.plus(delay)))
                .isEmpty();
    }

    /** The series' fire after {@code first}: the earliest other; null while there is none. */
    private TaskInstance next(AxTask task, String first) {
        return store.findByTask(task.name(), 20).stream()
                .filter(i -> !i.id().equals(first))
                .min(java.util.Comparator.comparing(TaskInstance::scheduledTime))
                .orElse(null);
    }

    private void start(int takeovers, AxTask... tasks) {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(NODE)
                .takeovers(takeovers)
                .observer(new EngineObserver() {
                    @Override
                    public void takenOver(AxTask task) {
                        takenOver.incrementAndGet();
                    }

                    @Override
                    public void finished(AxTask task, InstanceState outcome, Duration took) {
                        finished.add(outcome);
                    }
                })
                .build();
        for (AxTask task : tasks) {
            engine.register(task);
        }
        engine.start();
    }

    private static AxTask onDemand(String name, RetryPolicy retry) {
        return AxTask.builder(name).timeout(Duration.ofSeconds(5)).retry(retry).build();
    }

    private String instance(AxTask task) {
        return instance(task, InstanceOrigin.ON_DEMAND);
    }

    private String instance(AxTask task, InstanceOrigin origin) {
        String id = UUID.randomUUID().toString();
        Instant at = now.minusSeconds(600);
        TaskInstance i = new TaskInstance(id, task.name(), at, InstanceState.SCHEDULED, 0, DEAD_NODE, at, origin, null);
        assertThat(store.schedule(List.of(new NewFire(i, "seeded")))).containsExactly(true);
        return id;
    }

    /** A claim by {@code node}, written as a node that died left it (no owner recorded). */
    private void claim(String id, InstanceState from, int attempt, String node) {
        assertThat(store.transition(
                        new Transition(id, from, InstanceState.RUNNING, attempt, node, claimedAt, "claimed")))
                .isTrue();
    }

    private void move(String id, InstanceState from, InstanceState to, int attempt, String reason) {
        assertThat(store.transition(new Transition(id, from, to, attempt, "n1", claimedAt, reason)))
                .isTrue();
    }

    private InstanceState state(String id) {
        return store.find(id).map(TaskInstance::state).orElse(null);
    }
}
