package io.ax.core.engine.writes;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.Durability;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.Partitions;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.store.OwnedInstance;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The router reads both of its stores, also when a read is scoped to partitions. */
class StoreRouterTest {

    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final int COUNT = 16;

    @Test
    void aReadOfSomePartitionsFindsTheInFlightRowsOfBothStores() {
        InMemoryInstanceStore durable = new InMemoryInstanceStore();
        InMemoryInstanceStore memory = new InMemoryInstanceStore().fencedByPartitions(COUNT, p -> 1);
        StoreRouter router = new StoreRouter(durable, memory);
        TaskInstance kept = running(router, InstanceIds.next(Durability.PERSISTENT, T0), "kept");
        TaskInstance local = running(router, InstanceIds.next(Durability.MEMORY, T0), "local");

        List<OwnedInstance> found =
                router.findOwned(EnumSet.of(InstanceState.RUNNING), null, 10, new int[] {Partitions.of(local, COUNT)});

        assertThat(found).extracting(o -> o.instance().id()).contains(local.id());
        assertThat(router.findOwned(EnumSet.of(InstanceState.RUNNING), null, 10, new int[0]))
                .as("no partition asked for")
                .isEmpty();
        assertThat(router.findOwned(EnumSet.of(InstanceState.RUNNING), null, 10))
                .extracting(o -> o.instance().id())
                .containsExactlyInAnyOrder(kept.id(), local.id());
    }

    /** An instance of {@code task} written into the store its id names and moved to RUNNING, owned by n1. */
    private static TaskInstance running(StoreRouter router, String id, String task) {
        TaskInstance instance =
                new TaskInstance(id, task, T0, InstanceState.SCHEDULED, 0, "n1", T0, InstanceOrigin.ON_DEMAND, null);
        router.schedule(List.of(new NewFire(instance, "")));
        router.transition(new Transition(id, InstanceState.SCHEDULED, InstanceState.DISPATCHED, 1, "n1", T0, "claim")
                .assignedTo("n1", 0));
        router.transition(new Transition(id, InstanceState.DISPATCHED, InstanceState.RUNNING, 1, "n1", T0, "start")
                .ownedBy("n1"));
        return instance;
    }
}
