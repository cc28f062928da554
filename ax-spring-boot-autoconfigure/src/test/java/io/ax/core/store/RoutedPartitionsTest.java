package io.ax.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.cluster.PartitionLeases;
import io.ax.core.cluster.Partitions;
import io.ax.core.engine.writes.StoreRouter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's view of its stores ({@link StoreRouter}) and partitions: the reads by partition and the count are the
 * configured store's, without this process's MEMORY instances; a change or fire fenced by its partition reaches the
 * configured store with its fence, and a MEMORY instance's applies without it (the memory store keeps none of the
 * cluster's partitions).
 */
class RoutedPartitionsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration LONG = Duration.ofMinutes(5);
    private static final int COUNT = 4;

    private final InMemoryInstanceStore durable = new InMemoryInstanceStore();
    private final InMemoryInstanceStore memory = new InMemoryInstanceStore();
    private final StoreRouter router = new StoreRouter(durable, memory);
    private final long[] epochs = new long[COUNT];

    @BeforeEach
    void n1OwnsEveryPartition() {
        PartitionLeases leases = durable.partitionLeases().orElseThrow();
        leases.partitions(COUNT);
        durable.nodeRegistry().register(new NodeInfo("n1", "inc-1", "host", T0, Set.of("default"), 1), LONG);
        leases.takeAll(List.of(0, 1, 2, 3), "n1", "inc-1", LONG).forEach(p -> epochs[p.partition()] = p.epoch());
    }

    @Test
    void partitionReadsAndTheCountAreTheConfiguredStoresWithoutMemoryInstances() {
        TaskInstance stored = instance("d-1");
        TaskInstance inMemory = instance("m-1");
        router.schedule(List.of(new NewFire(stored, ""), new NewFire(inMemory, "")));
        int[] all = {0, 1, 2, 3};

        assertThat(router.partitionCount()).isEqualTo(COUNT);
        assertThat(router.findScheduled(T0.plusSeconds(60), null, null, 10, all))
                .containsExactly(stored);
        assertThat(router.findOwned(Set.of(InstanceState.SCHEDULED), null, 10, all))
                .extracting(o -> o.instance().id())
                .containsExactly(stored.id());
        assertThat(router.fillPartitions(COUNT, 10)).isZero();
    }

    @Test
    void aFenceByPartitionReachesTheConfiguredStoreAndIsDroppedForMemoryInstances() {
        TaskInstance stored = instance("d-1");
        TaskInstance inMemory = instance("m-1");
        int p = Partitions.of(stored, COUNT);
        long epoch = epochs[p];
        assertThat(router.schedule(List.of(
                        new NewFire(stored, "").fencedByPartition(epoch),
                        new NewFire(inMemory, "").fencedByPartition(epoch))))
                .containsExactly(true, true);

        assertThatThrownBy(() -> router.transition(claim(stored).fencedByPartition(epoch + 1)))
                .isInstanceOfSatisfying(
                        FencedOutException.class, e -> assertThat(e.partition()).isEqualTo(p));
        assertThat(router.transitionAll(List.of(
                        claim(stored).fencedByPartition(epoch), claim(inMemory).fencedByPartition(epoch + 1))))
                .containsExactly(true, true);
    }

    private static TaskInstance instance(String id) {
        return new TaskInstance(id, "job", T0, InstanceState.SCHEDULED, 0, "n1", T0, InstanceOrigin.DELAYED, id);
    }

    private static Transition claim(TaskInstance i) {
        return new Transition(i.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED, 1, "n1", T0, "claim");
    }
}
