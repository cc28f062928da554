package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.Partitions;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import io.ax.test.store.FailingStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node gives a partition up while its own attempts of the partition's non-overlapping tasks are under way, then
 * takes the partition back: the slots those attempts hold must be held again, or a second instance of a task starts
 * beside its first. The fault runner saw it (a catch-up of a one-second series ran beside the series' own run on the
 * same node); two ways to lose the slot are pinned here, on two nodes in one process over the in-memory store:
 *
 * <ul>
 *   <li>the loss's forgetting runs on the dispatch thread, after whatever that thread was doing: it must not drop a
 *       slot the takeover of the partition's return marked meanwhile;
 *   <li>an attempt claimed here but still waiting in its pool's queue is this node's attempt in flight, not one that
 *       ended here with its end on the way to the store.
 * </ul>
 */
class PartitionComesBackTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final ClusterSettings FAST = new ClusterSettings(
            Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMillis(300), Duration.ofMillis(50), 32);
    private static final int TASKS = 8;

    private final InMemoryInstanceStore shared = new InMemoryInstanceStore();
    private final FailingStore n1Store = new FailingStore(shared);
    private final RecordingExecutor executor = new RecordingExecutor();
    private final CountDownLatch letGo = new CountDownLatch(1);
    private final AtomicInteger started = new AtomicInteger();
    private final List<AxEngine> engines = new ArrayList<>();

    @AfterEach
    void stop() {
        letGo.countDown();
        engines.forEach(AxEngine::stop);
    }

    @Test
    void aSlotMarkedWhenThePartitionCameBackOutlivesTheLateForgettingOfItsLoss() {
        List<AxTask> tasks = longTasks();
        AxEngine n1 = node("n1", n1Store, new PoolSettings(TASKS, 100), tasks);
        n1.start();
        List<String> first = tasks.stream().map(t -> n1.triggerNow(t.name())).toList();
        await().atMost(BOUND).until(() -> started.get() == TASKS);

        // the dispatch thread is busy while the partitions go and come back: the forgetting of the loss waits
        CountDownLatch dispatchFree = new CountDownLatch(1);
        n1.parts().onDispatchThread(() -> awaitFor(dispatchFree));
        Set<String> moved = goAndComeBack(n1, tasks);
        dispatchFree.countDown();

        aSecondRunOfEachMovedTaskIsSkipped(n1, moved);
        letGo.countDown();
        await().atMost(BOUND).until(() -> first.stream().allMatch(id -> state(id) == InstanceState.SUCCESS));
        assertThat(executor.runs()).as("runs: each first run, once").hasSize(TASKS);
    }

    @Test
    void anAttemptWaitingForAWorkerKeepsItsTasksSlotWhenItsPartitionComesBack() {
        List<AxTask> tasks = longTasks();
        AxTask hog = AxTask.builder("hog").target("test.hog").concurrent(true).build();
        List<AxTask> all = new ArrayList<>(tasks);
        all.add(hog);
        // one worker, taken by the hog: the tasks' first runs are claimed (RUNNING in the store) and wait for it
        AxEngine n1 = node("n1", n1Store, new PoolSettings(1, 100), all);
        n1.start();
        n1.triggerNow("hog");
        await().atMost(BOUND).until(() -> started.get() == 1);
        List<String> first = tasks.stream().map(t -> n1.triggerNow(t.name())).toList();
        await().atMost(BOUND).until(() -> first.stream().allMatch(id -> state(id) == InstanceState.RUNNING));
        assertThat(started.get()).as("runs started: the hog's only").isEqualTo(1);

        Set<String> moved = goAndComeBack(n1, all);

        aSecondRunOfEachMovedTaskIsSkipped(n1, moved);
        letGo.countDown();
        await().atMost(BOUND).until(() -> first.stream().allMatch(id -> state(id) == InstanceState.SUCCESS));
        assertThat(executor.runs()).as("runs: the hog, and each first run once").hasSize(TASKS + 1);
    }

    /** Tasks that must not overlap, whose runs last until the test lets them go. */
    private List<AxTask> longTasks() {
        executor.when("hog", ctx -> {
            started.incrementAndGet();
            letGo.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return AxResult.success();
        });
        List<AxTask> tasks = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            String name = "long" + i;
            tasks.add(AxTask.builder(name).target("test." + name).build()); // concurrent = false
            executor.when(name, ctx -> {
                started.incrementAndGet();
                letGo.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
                return AxResult.success();
            });
        }
        return tasks;
    }

    /**
     * A second node joins, takes about half of the partitions and stops again, handing them back: n1 gives up the
     * partitions of some of the tasks and takes them back. Returns the tasks whose partition went and came back,
     * once n1's takeover of them is done.
     */
    private Set<String> goAndComeBack(AxEngine n1, List<AxTask> tasks) {
        AxEngine n2 = node("n2", shared, new PoolSettings(4, 100), tasks);
        n2.start();
        await().atMost(BOUND)
                .until(() ->
                        owned(n2).size() >= 100 && owned(n1).size() + owned(n2).size() == count(n1));
        Set<Integer> went = owned(n2);
        int count = n1.status().partitions().orElseThrow().count();
        Set<String> moved = tasks.stream()
                .map(AxTask::name)
                .filter(name -> went.contains(Partitions.of(name, count)))
                .collect(Collectors.toSet());
        assertThat(moved).as("tasks whose partition went to n2").isNotEmpty();

        AtomicBoolean takenBack = new AtomicBoolean();
        n1Store.inFlightReads(read -> {
            if (read.partitions() != null && Arrays.stream(read.partitions()).anyMatch(went::contains)) {
                takenBack.set(true); // the takeover of the partitions that came back reads their rows in flight
            }
        });
        n2.stop();
        await().atMost(BOUND).until(() -> owned(n1).size() == count(n1) && takenBack.get());
        await().atMost(BOUND).until(() -> n1.parts().leadership.idle());
        return moved;
    }

    /** Each moved task asked to run again on n1 while its first run holds it: SKIPPED, nothing started. */
    private void aSecondRunOfEachMovedTaskIsSkipped(AxEngine n1, Set<String> moved) {
        int before = started.get();
        List<String> second = moved.stream().map(n1::triggerNow).toList();
        // all decided, or one started beside its first run (it would hold on until the test lets it go)
        await().atMost(BOUND)
                .until(() -> second.stream().allMatch(id -> state(id).isFinal()) || started.get() > before);
        assertThat(second)
                .as("second runs asked for while the first ones hold their tasks")
                .allSatisfy(id -> assertThat(state(id)).isEqualTo(InstanceState.SKIPPED));
        assertThat(started.get()).as("runs started").isEqualTo(before);
    }

    private InstanceState state(String id) {
        return shared.find(id).orElseThrow().state();
    }

    private static int count(AxEngine e) {
        return e.status().partitions().orElseThrow().count();
    }

    private static Set<Integer> owned(AxEngine e) {
        return e.status().partitions().map(p -> Set.copyOf(p.owned().keySet())).orElse(Set.of());
    }

    private AxEngine node(String id, io.ax.core.store.InstanceStore store, PoolSettings pool, List<AxTask> tasks) {
        AxEngine e = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(id)
                .clusterSettings(FAST)
                .defaultPool(pool)
                .shutdownAwait(Duration.ofSeconds(1))
                .build();
        tasks.forEach(e::register);
        engines.add(e);
        return e;
    }

    private static void awaitFor(CountDownLatch latch) {
        try {
            latch.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
