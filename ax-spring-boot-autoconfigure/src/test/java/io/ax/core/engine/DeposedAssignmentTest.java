package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.ClusterProtocol;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.engine.ownership.Ownership;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import io.ax.test.store.FailingStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A deposed leader's assignment is fenced when its statement begins, not when it commits: a leader frozen or cut off
 * in between commits it after the next leader took the lease. That leader must still count the instance in flight,
 * or a non-overlapping task runs twice at once. The fault runner saw it in a 30-minute run: the assignment committed
 * between the new leader's read of what was in flight and its read of what was SCHEDULED, so the takeover saw the
 * instance in neither, and a second instance of the series ran beside it for 817 ms.
 *
 * <p>Here the deposed leader's write is made through the store, at the moment the test names; the node it assigned
 * to ({@code node-a}) stays alive (it heartbeats) but serves no group of this engine's, so its run is the store's
 * rows only.
 */
class DeposedAssignmentTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String OTHER = "node-a";

    private final InMemoryInstanceStore real = new InMemoryInstanceStore();
    private final FailingStore store = new FailingStore(real);
    private final RecordingExecutor executor = new RecordingExecutor();
    private final ScheduledExecutorService otherNode = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "test-node-a-heartbeat");
        t.setDaemon(true);
        return t;
    });
    private AxEngine engine;

    @BeforeEach
    void otherNodeLives() {
        real.nodeRegistry()
                .register(
                        new NodeInfo(
                                OTHER,
                                "incarnation-a",
                                "host-a",
                                Instant.now(),
                                Set.of("elsewhere"),
                                1,
                                ClusterProtocol.LEADER_ASSIGNS),
                        Duration.ofSeconds(2));
        otherNode.scheduleWithFixedDelay(
                () -> real.nodeRegistry().heartbeat(OTHER, "incarnation-a", 1), 0, 100, TimeUnit.MILLISECONDS);
        executor.when("slow", ctx -> AxResult.success());
    }

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
        otherNode.shutdownNow();
    }

    @Test
    void anAssignmentCommittedBetweenTheTakeoversTwoReadsKeepsItsTaskFromOverlapping() {
        Instant now = Instant.now();
        real.create(
                new TaskInstance(
                        "first",
                        "slow",
                        now.plusMillis(500),
                        InstanceState.CREATED,
                        0,
                        OTHER,
                        now,
                        InstanceOrigin.ON_DEMAND,
                        null),
                "run on demand");
        assertThat(real.transition(new Transition(
                        "first", InstanceState.CREATED, InstanceState.SCHEDULED, 0, OTHER, now, "scheduled")))
                .isTrue();
        // the takeover reads the tasks, then what is in flight, then what is SCHEDULED: the deposed leader's
        // assignment commits right after the second of those reads
        AtomicBoolean tasksRead = new AtomicBoolean();
        AtomicBoolean committed = new AtomicBoolean();
        store.afterRead(what -> {
            if (what.equals("findTasks")) {
                tasksRead.set(true);
            } else if (what.equals("findOwned") && tasksRead.get() && committed.compareAndSet(false, true)) {
                assignedAndStartedElsewhere("first");
            }
        });
        engine = engine();
        engine.start();
        assertThat(committed)
                .as("the deposed leader's assignment was made during the takeover")
                .isTrue();

        aSecondInstanceIsSkippedAndNothingRanHere();
        assertThat(real.find("first").orElseThrow().state()).isEqualTo(InstanceState.RUNNING);
    }

    @Test
    void anAssignmentThatLosesToADeposedLeadersKeepsItsTasksSlotUntilThatInstanceEnds() {
        engine = engine();
        engine.start();
        // this leader read the instance SCHEDULED; the deposed leader's assignment, begun before this leader took
        // the lease, commits first, and this leader's assignment finds the row moved
        AtomicReference<String> lost = new AtomicReference<>();
        store.beforeTransitions(group -> {
            for (Transition t : group) {
                if (t.from() == InstanceState.SCHEDULED
                        && t.to() == InstanceState.DISPATCHED
                        && lost.compareAndSet(null, t.instanceId())) {
                    assignedAndStartedElsewhere(t.instanceId());
                }
            }
        });
        String first = engine.triggerNow("slow");
        await().atMost(BOUND).until(() -> first.equals(lost.get()));
        store.beforeTransitions(group -> {});

        aSecondInstanceIsSkippedAndNothingRanHere();

        // the first ends on the other node: this leader hears of it, and the task runs here again
        endedElsewhere(first);
        await().atMost(BOUND).until(() -> !engine.leadership().runsElsewhere(first));
        String third = engine.triggerNow("slow"); // dispatched after the slot's release, on the same thread
        await().atMost(BOUND).until(() -> decided(third));
        assertThat(real.find(third).orElseThrow().state()).isEqualTo(InstanceState.SUCCESS);
        assertThat(executor.runsOf("slow")).hasSize(1);
    }

    private AxEngine engine() {
        AxEngine built = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-b")
                .clusterSettings(new ClusterSettings(
                        Duration.ofMillis(100),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(1),
                        Duration.ofMillis(50),
                        32))
                .ownership(Ownership.LEADER) // a leader's assignment to another node
                .build();
        built.register(AxTask.builder("slow").target("test.slow").build()); // concurrent = false
        return built;
    }

    /** What the deposed leader and the node it chose wrote: the assignment, then that node's start. */
    private void assignedAndStartedElsewhere(String id) {
        TaskInstance in = real.find(id).orElseThrow();
        Instant at = Instant.now();
        assertThat(real.transition(new Transition(
                                id,
                                InstanceState.SCHEDULED,
                                InstanceState.DISPATCHED,
                                0,
                                "node-c",
                                at,
                                "assigned to node " + OTHER + " by the deposed leader node-c",
                                in.scheduledTime())
                        .assignedTo(OTHER, 0)))
                .isTrue();
        assertThat(real.transition(
                        new Transition(id, InstanceState.DISPATCHED, InstanceState.RUNNING, 1, OTHER, at, "claimed")
                                .ownedBy(OTHER)))
                .isTrue();
    }

    private void endedElsewhere(String id) {
        assertThat(real.transition(new Transition(
                                id, InstanceState.RUNNING, InstanceState.SUCCESS, 1, OTHER, Instant.now(), "ended")
                        .ownedBy(OTHER)))
                .isTrue();
    }

    /** A second instance of the non-overlapping task, triggered while the first runs elsewhere, is SKIPPED. */
    private void aSecondInstanceIsSkippedAndNothingRanHere() {
        String second = engine.triggerNow("slow");
        await().atMost(BOUND).until(() -> decided(second));
        assertThat(real.find(second).orElseThrow().state())
                .as("a second instance of the non-overlapping task while the first runs on " + OTHER)
                .isEqualTo(InstanceState.SKIPPED);
        assertThat(executor.runsOf("slow")).isEmpty();
    }

    private boolean decided(String id) {
        InstanceState state = real.find(id).map(TaskInstance::state).orElse(InstanceState.SCHEDULED);
        return state != InstanceState.SCHEDULED && state != InstanceState.DISPATCHED;
    }
}
