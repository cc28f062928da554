package io.ax.core.engine.writes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.store.InstanceStore;
import io.ax.test.store.PlainStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A group of changes the store refuses because a fence moved: the changes of that kind of fence fail with it, the
 * others are applied on their own. A group of partition-fenced changes was applied again and again on its own
 * refusal (the retry left out only the leader's fences), until the stack overflowed.
 */
class StateWriterFencedOutTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    /** What the store applied, by instance id. */
    private final List<String> applied = new CopyOnWriteArrayList<>();

    /** Refuses every group with a fenced change, as a store whose partition 7 (or the leader's term) moved. */
    private final InstanceStore store = PlainStore.changesOnly(transitions -> {
        for (Transition t : transitions) {
            if (t.partitionEpoch() > 0) {
                throw new FencedOutException(7, t.partitionEpoch());
            }
            if (t.fence() > 0) {
                throw new FencedOutException(t.fence());
            }
        }
        transitions.forEach(t -> applied.add(t.instanceId()));
        boolean[] all = new boolean[transitions.size()];
        java.util.Arrays.fill(all, true);
        return all;
    });

    private final StateWriter writer = new StateWriter(store, 100, "node-a", AxClock.system(), "test-writer");

    @AfterEach
    void stop() {
        writer.stop(1_000);
    }

    @Test
    void partitionFencedChangesFailWithTheirFenceAndTheOthersApply() {
        writer.start();
        List<CompletableFuture<Boolean>> outcomes = writer.submitAll(List.of(
                change("fenced-1").fencedByPartition(3),
                change("free-1"),
                change("fenced-2").fencedByPartition(4),
                change("free-2")));

        await().atMost(BOUND).until(() -> outcomes.stream().allMatch(CompletableFuture::isDone));

        assertThat(StateWriter.failure(outcomes.get(0))).isInstanceOf(FencedOutException.class);
        assertThat(StateWriter.failure(outcomes.get(2))).isInstanceOf(FencedOutException.class);
        assertThat(outcomes.get(1).join()).isTrue();
        assertThat(outcomes.get(3).join()).isTrue();
        assertThat(applied).containsExactlyInAnyOrder("free-1", "free-2");
    }

    @Test
    void aLeaderFencedChangeFailsWithItsFenceAndAPartitionFencedOneIsTriedOnItsOwn() {
        writer.start();
        List<CompletableFuture<Boolean>> outcomes = writer.submitAll(List.of(
                change("leader-1").takenFrom("node-b", "node-a", 5),
                change("fenced-1").fencedByPartition(3)));

        await().atMost(BOUND).until(() -> outcomes.stream().allMatch(CompletableFuture::isDone));

        assertThat(((FencedOutException) StateWriter.failure(outcomes.get(0))).partition())
                .isEqualTo(FencedOutException.LEADER);
        assertThat(((FencedOutException) StateWriter.failure(outcomes.get(1))).partition())
                .isEqualTo(7);
        assertThat(applied).isEmpty();
    }

    private static Transition change(String id) {
        return new Transition(id, InstanceState.RUNNING, InstanceState.SUCCESS, 1, "node-a", Instant.now(), "test");
    }
}
