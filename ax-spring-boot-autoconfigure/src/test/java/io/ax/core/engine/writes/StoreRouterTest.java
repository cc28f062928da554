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
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The router reads both of its stores, also when a read is scoped to partitions, and tells what the configured store
 * committed, whichever part of the engine wrote it.
 */
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

    @Test
    void everyCommittedWriteOfTheConfiguredStoreIsRememberedAndNoneOfTheMemoryStore() {
        StoreRouter router = new StoreRouter(new InMemoryInstanceStore(), new InMemoryInstanceStore());
        RecentCommits commits = new RecentCommits(100, Duration.ofMinutes(1), System::nanoTime);
        router.recordCommits(commits);

        TaskInstance kept = running(router, InstanceIds.next(Durability.PERSISTENT, T0), "kept");
        running(router, InstanceIds.next(Durability.MEMORY, T0), "local");
        TaskInstance created = new TaskInstance(
                InstanceIds.next(Durability.PERSISTENT, T0),
                "made",
                T0,
                InstanceState.CREATED,
                0,
                "n1",
                T0,
                InstanceOrigin.WORKFLOW,
                null);
        router.create(created, "");
        boolean refused = router.transition(
                new Transition(kept.id(), InstanceState.SCHEDULED, InstanceState.CANCELLED, 1, "n1", T0, "late"));

        assertThat(refused).isFalse();
        assertThat(commits.size()).isEqualTo(2);
        assertThat(commits.missingFrom(router)).isEmpty();
        assertThat(commits.missingFrom(new InMemoryInstanceStore()))
                .as("a store that lost everything misses both, in the order they were last changed")
                .containsExactly(kept.id(), created.id());
    }

    @Test
    void aWriteInsideACallersTransactionIsRememberedOnlyOnceItCommits() {
        TestDatabase h2 = TestDatabase.H2;
        h2.migrate("axrouter_");
        StoreRouter router = new StoreRouter(h2.emptyStore("axrouter_"), new InMemoryInstanceStore());
        RecentCommits commits = new RecentCommits(100, Duration.ofMinutes(1), System::nanoTime);
        router.recordCommits(commits);
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(h2.dataSource()));

        tx.executeWithoutResult(status -> {
            scheduled(router, "rolled-back");
            status.setRollbackOnly();
        });
        assertThat(commits.size()).as("a rollback leaves nothing to remember").isZero();

        tx.executeWithoutResult(status -> {
            scheduled(router, "committed");
            assertThat(commits.size()).as("not before the commit").isZero();
        });
        assertThat(commits.size()).isEqualTo(1);
    }

    private static void scheduled(StoreRouter router, String task) {
        TaskInstance instance = new TaskInstance(
                InstanceIds.next(Durability.PERSISTENT, T0),
                task,
                T0,
                InstanceState.SCHEDULED,
                0,
                "n1",
                T0,
                InstanceOrigin.DELAYED,
                null);
        router.schedule(List.of(new NewFire(instance, "")));
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
