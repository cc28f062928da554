package io.ax.core.engine.insight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.Partitions;
import io.ax.core.engine.DueInStore;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.NewFire;
import io.ax.test.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The store's due figures as a node reads them: the cluster's oldest due fire, and its own partitions' (its lag). */
class StoreFiguresTest {

    private static final int PARTITIONS = 256;
    private final Instant now = Instant.parse("2026-12-07T12:00:00Z");
    private final FakeClock clock = new FakeClock(now);
    private final InMemoryInstanceStore store = new InMemoryInstanceStore().fencedByPartitions(PARTITIONS, p -> 0);
    private StoreFigures figures;

    @AfterEach
    void stop() {
        figures.stop();
    }

    @Test
    void aNodeLagsByTheOldestDueFireOfItsOwnPartitionsAndTheClusterByTheOldestOfAll() {
        TaskInstance old = due("01figs00-0000-7000-8000-000000000001", "a", 90);
        TaskInstance recent = due("01figs00-0000-7000-8000-000000000002", "b", 20);
        int oldPartition = Partitions.of(old, PARTITIONS);
        int recentPartition = Partitions.of(recent, PARTITIONS);
        assertThat(oldPartition).as("two partitions, two owners").isNotEqualTo(recentPartition);
        store.schedule(List.of(new NewFire(old, "test"), new NewFire(recent, "test")));

        DueInStore ownsTheRecent = read(() -> new int[] {recentPartition});
        assertThat(ownsTheRecent.oldestAge()).isEqualTo(Duration.ofSeconds(90));
        assertThat(ownsTheRecent.oldestAgeHere()).isEqualTo(Duration.ofSeconds(20));
        figures.stop();

        DueInStore ownsTheOld = read(() -> new int[] {oldPartition, recentPartition});
        assertThat(ownsTheOld.oldestAgeHere()).isEqualTo(Duration.ofSeconds(90));
        figures.stop();

        DueInStore ownsNone = read(() -> new int[0]);
        assertThat(ownsNone.oldestAgeHere()).as("nothing of its own is due").isZero();
        assertThat(ownsNone.oldestAge()).isEqualTo(Duration.ofSeconds(90));
        figures.stop();

        DueInStore notPartitioned = read(() -> null);
        assertThat(notPartitioned.oldestAgeHere())
                .as("a node whose work is not partitioned owns all that is due")
                .isEqualTo(Duration.ofSeconds(90));
    }

    private DueInStore read(Supplier<int[]> owned) {
        figures = new StoreFigures(store, clock, Duration.ofSeconds(1), owned);
        await().atMost(Duration.ofSeconds(10)).until(() -> figures.dueInStore().isPresent());
        Optional<DueInStore> due = figures.dueInStore();
        assertThat(due.orElseThrow().count()).isEqualTo(2);
        return due.orElseThrow();
    }

    private TaskInstance due(String id, String task, int secondsAgo) {
        Instant at = now.minusSeconds(secondsAgo);
        return new TaskInstance(id, task, at, InstanceState.SCHEDULED, 0, "elsewhere", at, InstanceOrigin.DELAYED, id);
    }
}
