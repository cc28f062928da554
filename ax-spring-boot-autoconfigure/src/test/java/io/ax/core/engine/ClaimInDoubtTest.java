package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.NewFire;
import io.ax.test.RecordingExecutor;
import io.ax.test.store.FailingStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A claim whose write meets a broken connection is settled against the store: it counts as won only if the store
 * holds that very claim, never because the instance is RUNNING on this node for another reason. The poller of a
 * node reads its assignments, and the claim of another path (or an earlier look) may settle and start the attempt
 * between that read and the poller's own check; the poller's second claim then loses, unless a broken write makes
 * its outcome doubtful and the doubt is settled by the state alone: the same attempt ran twice on one node
 * (PostgresOutageTest under random connection cuts: {@code "<id> attempt 1"=2}).
 */
class ClaimInDoubtTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String NODE = "node-a";

    private final InMemoryInstanceStore real = new InMemoryInstanceStore();
    private final FailingStore store = new FailingStore(real);
    private final RecordingExecutor executor = new RecordingExecutor();
    private final CountDownLatch releaseHandler = new CountDownLatch(1);
    private AxEngine engine;

    @AfterEach
    void stop() {
        releaseHandler.countDown();
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void aSecondClaimOfARunningAttemptWhoseWriteBreaksDoesNotRunItAgain() throws Exception {
        CountDownLatch handlerStarted = new CountDownLatch(1);
        executor.when("job", ctx -> {
            handlerStarted.countDown();
            releaseHandler.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            return AxResult.success();
        });
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(NODE)
                .pools(Map.of())
                // two workers: the attempt holds one; a second run of it would hold the other, and then the marker
                // below could not start before the attempt ends
                .defaultPool(new PoolSettings(2, 10))
                .clusterSettings(new ClusterSettings(
                        Duration.ofMillis(200),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(1),
                        Duration.ofMillis(50),
                        32))
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        engine.register(AxTask.builder("job").target("test.job").build());
        engine.register(AxTask.builder("marker").target("test.marker").build());
        engine.start();

        // an instance assigned to this node, due in an hour: only the poller claims it (the leader's own assignments
        // are claimed as they are made), and nothing else of the engine touches it
        Instant now = Instant.now();
        String id = InstanceIds.next(now);
        real.schedule(List.of(new NewFire(
                new TaskInstance(
                        id,
                        "job",
                        now.plus(Duration.ofHours(1)),
                        InstanceState.SCHEDULED,
                        0,
                        "leader",
                        now,
                        InstanceOrigin.DELAYED,
                        null),
                "scheduled by the test")));

        CountDownLatch firstClaimHeld = new CountDownLatch(1);
        CountDownLatch secondReadDone = new CountDownLatch(1);
        AtomicBoolean secondReadHeld = new AtomicBoolean();
        AtomicBoolean brokeSecondClaim = new AtomicBoolean();
        CountDownLatch doubtSettling = new CountDownLatch(1);
        store.beforeTransitions(transitions -> {
            for (Transition t : transitions) {
                if (!t.instanceId().equals(id) || t.to() != InstanceState.RUNNING) {
                    continue;
                }
                if (firstClaimHeld.getCount() > 0) {
                    // the first claim waits until the poller has read the instance as DISPATCHED once more
                    firstClaimHeld.countDown();
                    waitFor(secondReadDone);
                } else if (brokeSecondClaim.compareAndSet(false, true)) {
                    throw store.injected("the connection broke under the second claim");
                }
            }
        });
        store.afterRead(what -> {
            if (what.equals("findAll")
                    && brokeSecondClaim.get()
                    && Thread.currentThread().getName().equals("ax-writer")) {
                doubtSettling.countDown(); // the writer asks the store what became of the broken claim
            }
            if (what.equals("findOwned")
                    && Thread.currentThread().getName().startsWith("ax-claim")
                    && firstClaimHeld.getCount() == 0
                    && secondReadHeld.compareAndSet(false, true)) {
                // this read saw the instance DISPATCHED: the first claim is held before the store. Its answer is
                // held until the first claim has settled and its attempt runs
                secondReadDone.countDown();
                waitFor(handlerStarted);
            }
        });
        real.transition(new Transition(
                        id, InstanceState.SCHEDULED, InstanceState.DISPATCHED, 1, "leader", now, "assigned by the test")
                .assignedTo(NODE, 0));

        assertThat(handlerStarted.await(BOUND.toSeconds(), TimeUnit.SECONDS))
                .as("the attempt started")
                .isTrue();
        waitFor(doubtSettling);
        // the second claim's retry finds the instance RUNNING with this node and this attempt: it must lose. The
        // marker's assignment and claim reach the writer after that settlement; it runs on the second worker only
        // if the attempt did not start again there
        engine.triggerNow("marker");
        await().atMost(BOUND)
                .until(() -> !executor.runsOf("marker").isEmpty()
                        || executor.runsOf("job").size() > 1);
        assertThat(executor.runsOf("job"))
                .as("attempts run while the first still runs")
                .hasSize(1);
        releaseHandler.countDown();
        await().atMost(BOUND)
                .until(() -> real.find(id)
                        .map(i -> i.state() == InstanceState.SUCCESS)
                        .orElse(false));
        engine.stop();

        assertThat(executor.runsOf("job")).as("attempts run").hasSize(1);
        assertThat(real.auditTrail(id).stream().map(AuditEntry::to).toList())
                .containsExactly(
                        InstanceState.CREATED,
                        InstanceState.SCHEDULED,
                        InstanceState.DISPATCHED,
                        InstanceState.RUNNING,
                        InstanceState.SUCCESS);
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            if (!latch.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("a step of the test did not come within " + BOUND);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
