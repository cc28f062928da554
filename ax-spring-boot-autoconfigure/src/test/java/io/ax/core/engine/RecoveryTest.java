package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.MisfirePolicy;
import io.ax.core.RetryPolicy;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A node that starts on a store left behind by a dead node resumes everything that was unfinished. */
class RecoveryTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String DEAD_NODE = "dead-node";
    private static final String NODE = "fresh-node";

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    private AxEngine start(AxTask... tasks) {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(NODE)
                .maxCatchUp(3)
                .build();
        for (AxTask task : tasks) {
            engine.register(task);
        }
        engine.start();
        return engine;
    }

    @Test
    void aPendingFireThatIsStillAheadGoesBackIntoTheWheel() {
        AxTask task = hourly("report", MisfirePolicy.FIRE_ONCE);
        String pending = pendingFire(task, now.plusMillis(300));
        start(task);
        await().atMost(BOUND).until(() -> state(pending) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("report"))
                .singleElement()
                .extracting(AxContext::instanceId)
                .isEqualTo(pending);
        assertThat(store.findTask("report").orElseThrow().nextFireTime())
                .isEqualTo(now.plusMillis(300).plus(Duration.ofHours(1)));
    }

    @Test
    void fireOnceRunsOneCatchUpForAllMissedTimesThenFollowsTheSchedule() {
        AxTask task = hourly("report", MisfirePolicy.FIRE_ONCE);
        Instant missed = now.minus(Duration.ofHours(5)).minusSeconds(30);
        String pending = pendingFire(task, missed);
        start(task);
        await().atMost(BOUND).until(() -> state(pending) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("report")).hasSize(1);
        Instant next = store.findTask("report").orElseThrow().nextFireTime();
        assertThat(next).isEqualTo(missed.plus(Duration.ofHours(6)));
        assertThat(next).isAfter(now);
    }

    @Test
    void skipCancelsTheMissedFireAndFollowsTheSchedule() {
        AxTask task = hourly("report", MisfirePolicy.SKIP);
        String pending = pendingFire(task, now.minus(Duration.ofHours(2)));
        start(task);
        await().atMost(BOUND).until(() -> state(pending) == InstanceState.CANCELLED);
        assertThat(lastReason(pending)).contains("misfire policy SKIP");
        assertThat(store.findTask("report").orElseThrow().nextFireTime()).isAfter(now);
        assertThat(executor.runsOf("report")).isEmpty();
    }

    @Test
    void fireAllRunsOneInstancePerMissedTimeUpToTheLimit() {
        AxTask task = hourly("report", MisfirePolicy.FIRE_ALL);
        Instant missed = now.minus(Duration.ofHours(10));
        pendingFire(task, missed);
        start(task);
        await().atMost(BOUND).until(() -> executor.runsOf("report").size() == 3);
        assertThat(executor.runsOf("report"))
                .extracting(AxContext::scheduledTime)
                .containsExactlyInAnyOrder(missed, missed.plus(Duration.ofHours(1)), missed.plus(Duration.ofHours(2)));
    }

    @Test
    void aTaskWhoseNextFireWasNeverWrittenGoesOnFromItsLastFire() {
        AxTask task = hourly("report", MisfirePolicy.FIRE_ONCE);
        String fired = pendingFire(task, now.minus(Duration.ofMinutes(30)));
        walk(fired, InstanceState.RUNNING, InstanceState.SUCCESS);
        start(task);
        assertThat(store.findTask("report").orElseThrow().nextFireTime())
                .isEqualTo(now.minus(Duration.ofMinutes(30)).plus(Duration.ofHours(1)));
        assertThat(executor.runsOf("report")).isEmpty();
    }

    @Test
    void anInstanceThatWasAssignedToADeadNodeIsAssignedAgainWithTheSameAttempt() {
        AxTask task = onDemand("job", RetryPolicy.none());
        String id = instance(task, now.minusSeconds(10));
        walk(id, InstanceState.DISPATCHED);
        start(task);
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("job"))
                .singleElement()
                .extracting(AxContext::attempt)
                .isEqualTo(1);
        assertThat(store.auditTrail(id))
                .anySatisfy(a -> assertThat(a.reason()).contains("taken back").contains(DEAD_NODE));
    }

    /**
     * An earlier version assigned instances to the node before they ran (DISPATCHED); this one claims in one write
     * and never looks for assignments. What its last run was assigned goes back to SCHEDULED at its start, known
     * task or not, and the owner of its partition (this node, alone) claims it like any due instance, with the same
     * attempt.
     */
    @Test
    void whatAnEarlierVersionAssignedToThisNodesLastRunGoesBackAndRunsOnce() {
        AxTask task = onDemand("job", RetryPolicy.none());
        String id = instance(task, now.minusSeconds(10));
        walkOn(NODE, id, InstanceState.DISPATCHED);
        String unknown = write(onDemand("elsewhere", RetryPolicy.none()), now.minusSeconds(10), false);
        walkOn(NODE, unknown, InstanceState.DISPATCHED);
        start(task);
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("job"))
                .singleElement()
                .extracting(AxContext::attempt)
                .isEqualTo(1);
        assertThat(store.auditTrail(id))
                .extracting(AuditEntry::to)
                .containsSubsequence(
                        InstanceState.DISPATCHED,
                        InstanceState.SCHEDULED,
                        InstanceState.RUNNING,
                        InstanceState.SUCCESS);
        assertThat(store.auditTrail(id))
                .anySatisfy(a -> assertThat(a.reason()).contains("returned").contains(NODE));
        // a task this node does not know waits SCHEDULED for a node that knows it, held by none
        await().atMost(BOUND).until(() -> state(unknown) == InstanceState.SCHEDULED);
        assertThat(executor.runsOf("elsewhere")).isEmpty();
    }

    @Test
    void anInstanceThatWasRunningOnADeadNodeFailsAndIsRetried() {
        AxTask task = onDemand("job", new RetryPolicy(2, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)));
        String id = instance(task, now.minusSeconds(10));
        walk(id, InstanceState.RUNNING);
        start(task);
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(store.auditTrail(id))
                .extracting(AuditEntry::to)
                .endsWith(
                        InstanceState.RUNNING,
                        InstanceState.FAILED,
                        InstanceState.RETRYING,
                        InstanceState.RUNNING,
                        InstanceState.SUCCESS);
        assertThat(executor.runsOf("job"))
                .singleElement()
                .extracting(AxContext::attempt)
                .isEqualTo(2);
    }

    @Test
    void anInstanceThatWasRunningOnADeadNodeRunsAgainThoughItHasNoRetries() {
        AxTask task = onDemand("job", RetryPolicy.none());
        String id = instance(task, now.minusSeconds(10));
        walk(id, InstanceState.RUNNING);
        start(task);
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(store.auditTrail(id))
                .filteredOn(AuditEntry::isTakeover)
                .singleElement()
                .satisfies(e -> assertThat(e.reason()).contains("node " + DEAD_NODE + " stopped"));
        assertThat(executor.runsOf("job")).extracting(AxContext::attempt).containsExactly(2);
    }

    @Test
    void anInstanceLeftFailedByADeadNodeBeforeItDecidedWhatFollowsIsRetried() {
        // the node recorded the failed attempt and died before it wrote the retry: nothing else would move it on
        AxTask task = onDemand("job", new RetryPolicy(2, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)));
        String id = instance(task, now.minusSeconds(10));
        walk(id, InstanceState.RUNNING, InstanceState.FAILED);
        start(task);
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(store.auditTrail(id))
                .extracting(AuditEntry::to)
                .endsWith(InstanceState.FAILED, InstanceState.RETRYING, InstanceState.RUNNING, InstanceState.SUCCESS);
        assertThat(executor.runsOf("job"))
                .singleElement()
                .extracting(AxContext::attempt)
                .isEqualTo(2);
    }

    @Test
    void anInstanceLeftTimedOutByADeadNodeWithItsRetriesUsedUpDies() {
        AxTask task = onDemand("job", RetryPolicy.none());
        String id = instance(task, now.minusSeconds(10));
        walk(id, InstanceState.RUNNING, InstanceState.TIMEOUT);
        start(task);
        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(store.deadLetters(0, 10))
                .singleElement()
                .satisfies(d -> assertThat(d.instanceId()).isEqualTo(id));
        assertThat(executor.runsOf("job")).isEmpty();
    }

    @Test
    void aRetryingInstanceIsDispatchedAfterTheRestOfItsBackoff() {
        AxTask task = onDemand("job", new RetryPolicy(3, Backoff.FIXED, Duration.ofMillis(50), Duration.ofMillis(50)));
        String id = instance(task, now.minusSeconds(10));
        walk(id, InstanceState.RUNNING, InstanceState.FAILED, InstanceState.RETRYING);
        start(task);
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("job"))
                .singleElement()
                .extracting(AxContext::attempt)
                .isEqualTo(2);
    }

    private static AxTask hourly(String name, MisfirePolicy policy) {
        return AxTask.builder(name)
                .trigger(IntervalTrigger.fixedRate(Duration.ofHours(1), Duration.ZERO))
                .timeout(Duration.ofSeconds(5))
                .misfire(policy)
                .build();
    }

    private static AxTask onDemand(String name, RetryPolicy retry) {
        return AxTask.builder(name).timeout(Duration.ofSeconds(5)).retry(retry).build();
    }

    /** What a dead node left: the task's pending series fire. */
    private String pendingFire(AxTask task, Instant at) {
        store.saveTask(task.name(), task.trigger().describe(), now.minus(Duration.ofDays(1)));
        return write(task, at, true);
    }

    private String instance(AxTask task, Instant at) {
        return write(task, at, false);
    }

    private String write(AxTask task, Instant at, boolean series) {
        String id = UUID.randomUUID().toString();
        InstanceOrigin origin = series ? InstanceOrigin.SERIES : InstanceOrigin.ON_DEMAND;
        TaskInstance i = new TaskInstance(
                id,
                task.name(),
                at,
                InstanceState.SCHEDULED,
                0,
                DEAD_NODE,
                at,
                origin,
                series ? TaskInstance.fireKey(at) : null);
        assertThat(store.schedule(List.of(new NewFire(i, "seeded")))).containsExactly(true);
        return id;
    }

    /** A path of changes by the dead node, written as that node left them (no owner recorded). */
    private void walk(String id, InstanceState... path) {
        for (Transition t : path(DEAD_NODE, id, path)) {
            assertThat(store.transition(t)).isTrue();
        }
    }

    /** A path of changes by {@code node}, which holds the instance at its end, as an earlier version's assignment did. */
    private void walkOn(String node, String id, InstanceState... path) {
        for (Transition t : path(node, id, path)) {
            assertThat(store.transition(t.assignedTo(node, 0))).isTrue();
        }
    }

    private List<Transition> path(String node, String id, InstanceState... path) {
        List<Transition> changes = new java.util.ArrayList<>();
        InstanceState from = InstanceState.SCHEDULED;
        int attempt = 0;
        for (InstanceState to : path) {
            if (to == InstanceState.DISPATCHED || (to == InstanceState.RUNNING && from != InstanceState.DISPATCHED)) {
                attempt++; // a claim, in this version's one write or an earlier version's two
            }
            changes.add(new Transition(id, from, to, attempt, node, now.minusSeconds(5), "seeded"));
            from = to;
        }
        return changes;
    }

    private InstanceState state(String id) {
        return store.find(id).map(TaskInstance::state).orElse(null);
    }

    private String lastReason(String id) {
        List<AuditEntry> trail = store.auditTrail(id);
        return trail.get(trail.size() - 1).reason();
    }
}
