package io.ax.core.engine.writes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.NewFire;
import io.ax.test.store.FailingStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A claim whose write meets a broken connection is settled against the store: it counts as won only if the row
 * holds that very claim (its state, attempt, owner and change stamp), never because the row is RUNNING with this
 * node and this attempt for another reason. Settled by the state alone, a second claim of an attempt this node runs
 * already counted as won and started the attempt again (PostgresOutageTest under random connection cuts: {@code
 * "<id> attempt 1"=2}).
 */
class StateWriterInDoubtTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String NODE = "node-a";

    private final InMemoryInstanceStore real = new InMemoryInstanceStore();
    private final FailingStore store = new FailingStore(real);
    private final StateWriter writer = new StateWriter(store, 100, NODE, AxClock.system(), "test-writer");
    private final String id = "instance-1";

    @BeforeEach
    void scheduled() {
        Instant now = Instant.now();
        real.schedule(List.of(new NewFire(
                new TaskInstance(id, "job", now, InstanceState.SCHEDULED, 0, "test", now, InstanceOrigin.DELAYED, null),
                "scheduled by the test")));
        writer.start();
    }

    @AfterEach
    void stop() {
        writer.stop(1_000);
    }

    @Test
    void aClaimThatCommittedBeforeItsConnectionBrokeIsWon() {
        Transition claim = claim();
        AtomicBoolean broke = new AtomicBoolean();
        store.beforeTransitions(transitions -> {
            if (transitions.contains(claim) && broke.compareAndSet(false, true)) {
                real.transitionAll(transitions); // the commit went through; its answer is lost
                throw store.injected("the connection broke after the commit");
            }
        });

        assertThat(outcome(writer.submit(claim))).isTrue();
        assertThat(broke).isTrue();
        assertThat(real.find(id).orElseThrow().state()).isEqualTo(InstanceState.RUNNING);
    }

    @Test
    void aClaimThatNeverReachedTheStoreIsTriedAgainAndWon() {
        Transition claim = claim();
        AtomicBoolean broke = new AtomicBoolean();
        store.beforeTransitions(transitions -> {
            if (transitions.contains(claim) && broke.compareAndSet(false, true)) {
                throw store.injected("the connection broke before the commit");
            }
        });

        assertThat(outcome(writer.submit(claim))).isTrue();
        assertThat(broke).isTrue();
        assertThat(real.auditTrail(id))
                .filteredOn(a -> a.to() == InstanceState.RUNNING)
                .hasSize(1);
    }

    @Test
    void aSecondClaimOfTheSameAttemptWhoseConnectionBreaksIsLostThoughTheRowIsRunningHere() {
        assertThat(outcome(writer.submit(claim()))).isTrue(); // the first claim: its attempt runs here

        Transition second = claim(); // same states, attempt and node; its own change stamp
        AtomicBoolean broke = new AtomicBoolean();
        store.beforeTransitions(transitions -> {
            if (transitions.contains(second) && broke.compareAndSet(false, true)) {
                throw store.injected("the connection broke under the second claim");
            }
        });

        assertThat(outcome(writer.submit(second)))
                .as("a claim the row does not hold is lost, whatever state the row is in")
                .isFalse();
        assertThat(broke).isTrue();
        assertThat(real.auditTrail(id))
                .filteredOn(a -> a.to() == InstanceState.RUNNING)
                .hasSize(1);
    }

    /** This node's claim of attempt 1, as the dispatch writes it. */
    private Transition claim() {
        return writer.change(id, InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "claimed by node " + NODE)
                .assignedTo(NODE, 0);
    }

    private static Boolean outcome(CompletableFuture<Boolean> future) {
        await().atMost(BOUND).until(future::isDone);
        return future.join();
    }
}
