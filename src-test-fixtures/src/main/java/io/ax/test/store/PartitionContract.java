package io.ax.test.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.Lease;
import io.ax.core.cluster.PartitionCountMismatchException;
import io.ax.core.cluster.PartitionLeases;
import io.ax.core.cluster.Partitions;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.store.OwnedInstance;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * How a store keeps the partition of each instance ({@link Partitions#of(TaskInstance, int)}) and reads by it: every
 * way an instance is written gives it its partition once the store knows the count; the partition-scoped reads
 * return the rows of the partitions asked for and no other, in the order and pages of the reads of every partition;
 * rows written before the count was known are in no partition until {@link InstanceStore#fillPartitions} gives them
 * one. Part of {@link InstanceStoreContract}; skipped for a store that keeps no partitions.
 */
abstract class PartitionContract extends RetentionContract {

    static final int COUNT = 8;
    static final int[] ALL = IntStream.range(0, COUNT).toArray();
    private static final Instant BOUND = T0.plusSeconds(3_600);
    private static final Comparator<TaskInstance> DUE_ORDER =
            Comparator.comparing(TaskInstance::scheduledTime).thenComparing(TaskInstance::id);

    @Test
    void theStoreLearnsTheCountWhenItsPartitionsRecordIt() {
        assertThat(store.partitionCount()).as("before any node asked").isZero();
        knowPartitions();
        assertThat(store.partitionCount()).isEqualTo(COUNT);
    }

    @Test
    void aCreatedInstanceIsInItsPartitionAndNoOther() {
        knowPartitions();
        TaskInstance i = created("report", T0);
        store.create(i, "");
        int p = Partitions.of(i, COUNT);

        assertThat(ids(store.findOwned(Set.of(InstanceState.CREATED), null, 10, new int[] {p})))
                .containsExactly(i.id());
        assertThat(store.findOwned(Set.of(InstanceState.CREATED), null, 10, allBut(p)))
                .isEmpty();
    }

    @Test
    void aGroupOfFiresOfEveryOriginGivesEachRowItsOwnPartition() {
        knowPartitions();
        List<TaskInstance> group = everyOrigin(T0);
        store.schedule(group.stream().map(i -> new NewFire(i, "")).toList());

        assertEachIsInItsPartitionOnly(group);
        // the rules themselves, not only the function applied to the same instance: task, run, key, id
        assertThat(partitionOf(group.get(0))).isEqualTo(Partitions.of("billing", COUNT));
        assertThat(partitionOf(group.get(5))).isEqualTo(Partitions.of("run-7", COUNT));
        assertThat(partitionOf(group.get(3))).isEqualTo(Partitions.of("invoice-42", COUNT));
        assertThat(partitionOf(group.get(4)))
                .isEqualTo(Partitions.of(group.get(4).id(), COUNT));
    }

    @Test
    void aLeadersFencedGroupOfFiresGetsItsPartitionsToo() {
        knowPartitions();
        Lease lease =
                cluster().leaderLease().acquire("n1", Duration.ofMinutes(1)).orElseThrow();
        List<TaskInstance> group = everyOrigin(T0);
        boolean[] written =
                store.schedule(group.stream().map(i -> new NewFire(i, "")).toList(), lease.epoch());

        assertThat(written).containsOnly(true);
        assertEachIsInItsPartitionOnly(group);
    }

    @Test
    void aGroupThatMeetsADuplicateStillGivesEveryRowWrittenItsPartition() {
        knowPartitions();
        TaskInstance first = delayed("mail", T0, "invoice-1");
        store.schedule(List.of(new NewFire(first, "")));
        List<TaskInstance> group = new ArrayList<>(everyOrigin(T0.plusSeconds(10)));
        group.add(1, delayed("mail", T0.plusSeconds(20), "invoice-1")); // a duplicate, row by row from here on
        boolean[] written =
                store.schedule(group.stream().map(i -> new NewFire(i, "")).toList());

        assertThat(written[1]).isFalse();
        List<TaskInstance> others = new ArrayList<>(group);
        others.remove(1);
        others.add(first);
        assertEachIsInItsPartitionOnly(others);
    }

    @Test
    void aBigGroupOfFiresGetsItsPartitionsRowByRow() {
        knowPartitions();
        List<TaskInstance> group = new ArrayList<>();
        for (int n = 0; n < 1_200; n++) {
            Instant at = T0.plusMillis(n);
            group.add(n % 2 == 0 ? scheduled("task-" + (n % 37), at) : delayed("mail", at, "key-" + n));
        }
        store.schedule(group.stream().map(i -> new NewFire(i, "")).toList());

        List<TaskInstance> seen = new ArrayList<>();
        for (int p = 0; p < COUNT; p++) {
            int partition = p;
            List<TaskInstance> in = store.findScheduled(BOUND, null, null, 2_000, new int[] {p});
            assertThat(in).allSatisfy(i -> assertThat(Partitions.of(i, COUNT)).isEqualTo(partition));
            seen.addAll(in);
        }
        assertThat(seen).extracting(TaskInstance::id).containsExactlyInAnyOrderElementsOf(ids(group));
    }

    @Test
    void rowsOfOtherPartitionsAreNeverReturned() {
        knowPartitions();
        List<TaskInstance> all = manyDue(120);
        int[] some = {1, 4, 6};

        assertThat(store.findScheduled(BOUND, null, null, 1_000, some))
                .containsExactlyElementsOf(inPartitions(all, some));
        for (int p = 0; p < COUNT; p++) {
            assertThat(store.findScheduled(BOUND, null, null, 1_000, new int[] {p}))
                    .as("partition %d", p)
                    .containsExactlyElementsOf(inPartitions(all, p));
        }
        assertThat(store.findScheduled(BOUND, null, null, 1_000, ALL)).containsExactlyElementsOf(sorted(all));
    }

    @Test
    void pagesAcrossPartitionsKeepScheduledTimeThenIdOrderAlsoAmongEqualTimes() {
        knowPartitions();
        List<TaskInstance> all = manyDue(90);
        int[] some = {0, 2, 3, 7};
        List<TaskInstance> expected = inPartitions(all, some);

        List<TaskInstance> seen = new ArrayList<>();
        Instant afterTime = null;
        String afterId = null;
        for (int page = 0; page < 100; page++) {
            List<TaskInstance> got = store.findScheduled(BOUND, afterTime, afterId, 4, some);
            assertThat(got).hasSizeLessThanOrEqualTo(4);
            if (got.isEmpty()) {
                break;
            }
            seen.addAll(got);
            afterTime = got.get(got.size() - 1).scheduledTime();
            afterId = got.get(got.size() - 1).id();
        }
        assertThat(seen).containsExactlyElementsOf(expected);
    }

    @Test
    void theBoundAndTheStateApplyAsInTheReadOfEveryPartition() {
        knowPartitions();
        TaskInstance early = delayed("mail", T0, "a");
        TaskInstance atBound = delayed("mail", T0.plusSeconds(10), "a2");
        TaskInstance dispatched = delayed("mail", T0.plusSeconds(1), "a3");
        store.schedule(List.of(new NewFire(early, ""), new NewFire(atBound, ""), new NewFire(dispatched, "")));
        store.transition(move(dispatched.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED));

        assertThat(store.findScheduled(T0.plusSeconds(10), null, null, 10, ALL)).containsExactly(early);
        assertThat(store.findScheduled(T0.plusSeconds(10), null, null, 0, ALL)).isEmpty();
        assertThat(store.findScheduled(T0.plusSeconds(10), null, null, 10, new int[0]))
                .isEmpty();
        assertThat(store.findScheduled(T0.plusSeconds(10), null, null, 10, new int[] {-1, COUNT, 4096}))
                .as("numbers no partition has")
                .isEmpty();
    }

    @Test
    void ownedInstancesOfPartitionsAreReadByStateAndOwnerOldestFirst() {
        knowPartitions();
        List<TaskInstance> all = manyDue(40);
        List<TaskInstance> runningOnN1 = new ArrayList<>();
        List<TaskInstance> stillScheduled = new ArrayList<>();
        for (int n = 0; n < all.size(); n++) {
            TaskInstance i = all.get(n);
            if (n % 2 == 1) {
                stillScheduled.add(i);
                continue;
            }
            String owner = n % 4 == 0 ? "n1" : "n2";
            store.transition(move(i.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED)
                    .assignedTo(owner, 0));
            store.transition(move(i.id(), InstanceState.DISPATCHED, InstanceState.RUNNING));
            if (owner.equals("n1")) {
                runningOnN1.add(i);
            }
        }
        int[] some = {2, 5};
        Set<InstanceState> inFlight = EnumSet.of(InstanceState.DISPATCHED, InstanceState.RUNNING);

        List<OwnedInstance> n1 = store.findOwned(inFlight, "n1", 100, some);
        assertThat(ids(n1)).containsExactlyElementsOf(ids(inPartitions(runningOnN1, some)));
        assertThat(n1).allSatisfy(o -> {
            assertThat(o.owner()).isEqualTo("n1");
            assertThat(o.instance().state()).isEqualTo(InstanceState.RUNNING);
        });
        assertThat(ids(store.findOwned(Set.of(InstanceState.SCHEDULED), null, 100, some)))
                .containsExactlyElementsOf(ids(inPartitions(stillScheduled, some)));
        assertThat(store.findOwned(inFlight, null, 3, ALL)).hasSize(3);
        assertThat(store.findOwned(Set.of(), null, 100, ALL)).isEmpty();
    }

    @Test
    void rowsInFlightOfPartitionsAreReadLessThoseOfTheListedHolders() {
        knowPartitions();
        List<TaskInstance> all = manyDue(60);
        // every fourth row held by no node, as a row an earlier version left in flight
        List<TaskInstance> onN3 = new ArrayList<>();
        for (int n = 0; n < all.size(); n++) {
            TaskInstance i = all.get(n);
            String owner = n % 4 == 3 ? null : "n" + (1 + n % 4);
            Transition dispatch = move(i.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED);
            store.transition(owner == null ? dispatch : dispatch.assignedTo(owner, 0));
            if (n % 2 == 0) {
                store.transition(move(i.id(), InstanceState.DISPATCHED, InstanceState.RUNNING));
            }
            if (!"n1".equals(owner) && !"n2".equals(owner)) {
                onN3.add(i);
            }
        }
        int[] some = {1, 4, 6};
        Set<InstanceState> inFlight = EnumSet.of(InstanceState.DISPATCHED, InstanceState.RUNNING);

        List<OwnedInstance> left = store.findHeldByNoneOf(inFlight, Set.of("n1", "n2"), 100, some);
        assertThat(ids(left))
                .as("n3's rows of those partitions and those held by none, oldest first")
                .containsExactlyElementsOf(ids(inPartitions(onN3, some)))
                .isNotEmpty();
        assertThat(left)
                .extracting(OwnedInstance::owner)
                .containsOnly("n3", null)
                .contains("n3", (String) null);
        assertThat(ids(store.findHeldByNoneOf(Set.of(InstanceState.RUNNING), Set.of("n1", "n2"), 100, some)))
                .as("of one state")
                .containsExactlyElementsOf(ids(inPartitions(onN3, some).stream()
                        .filter(i -> all.indexOf(i) % 2 == 0)
                        .toList()));
        assertThat(ids(store.findHeldByNoneOf(inFlight, Set.of("n1", "n2"), 2, some)))
                .as("a page")
                .containsExactlyElementsOf(ids(inPartitions(onN3, some)).subList(0, 2));
        assertThat(ids(store.findHeldByNoneOf(inFlight, Set.of(), 100, some)))
                .as("no holder left out")
                .containsExactlyElementsOf(ids(inPartitions(all, some)));
        assertThat(store.findHeldByNoneOf(inFlight, Set.of("n1", "n2", "n3"), 100, ALL))
                .as("with every node left out, the rows held by none")
                .extracting(OwnedInstance::owner)
                .hasSize(all.size() / 4)
                .containsOnlyNulls();
        assertThat(store.findHeldByNoneOf(inFlight, Set.of("n1"), 100, new int[0]))
                .isEmpty();
    }

    @Test
    void aReplayedInstanceStaysInItsPartition() {
        knowPartitions();
        TaskInstance i = delayed("mail", T0, null);
        store.schedule(List.of(new NewFire(i, "")));
        for (InstanceState[] step : new InstanceState[][] {
            {InstanceState.SCHEDULED, InstanceState.DISPATCHED},
            {InstanceState.DISPATCHED, InstanceState.RUNNING},
            {InstanceState.RUNNING, InstanceState.FAILED},
            {InstanceState.FAILED, InstanceState.DEAD},
            {InstanceState.DEAD, InstanceState.RETRYING}
        }) {
            assertThat(store.transition(move(i.id(), step[0], step[1]))).isTrue();
        }
        assertThat(store.findOwned(Set.of(InstanceState.RETRYING), null, 10, new int[] {Partitions.of(i, COUNT)}))
                .extracting(o -> o.instance().id())
                .containsExactly(i.id());
    }

    @Test
    void instancesWrittenBeforeTheCountWasKnownAreInNoPartitionUntilFilledInBatches() {
        List<TaskInstance> old = everyOrigin(T0);
        store.schedule(old.stream().map(i -> new NewFire(i, "")).toList());
        TaskInstance created = created("report", T0.plusSeconds(5));
        store.create(created, "");
        knowPartitions();
        TaskInstance fresh = delayed("mail", T0.plusSeconds(9), "fresh");
        store.schedule(List.of(new NewFire(fresh, "")));

        assertThat(store.findScheduled(BOUND, null, null, 100, ALL))
                .as("only the instance written once the count was known")
                .containsExactly(fresh);
        assertThat(store.findScheduled(BOUND, null, null, 100))
                .as("the read of every partition still finds the old ones")
                .hasSize(old.size() + 1);

        int total = 0;
        for (int round = 0; round < 10; round++) {
            int filled = store.fillPartitions(COUNT, 3);
            assertThat(filled).isBetween(0, 3);
            if (filled == 0) {
                break;
            }
            total += filled;
        }
        assertThat(total).isEqualTo(old.size() + 1);
        assertThat(store.fillPartitions(COUNT, 3)).as("nothing left").isZero();
        assertEachIsInItsPartitionOnly(old);
        assertThat(ids(store.findOwned(
                        Set.of(InstanceState.CREATED), null, 10, new int[] {Partitions.of(created, COUNT)})))
                .containsExactly(created.id());
    }

    @Test
    void instancesThatFinishedForGoodKeepNoPartitionButDeadOnesGetOne() {
        TaskInstance done = delayed("mail", T0, "done");
        TaskInstance dead = delayed("mail", T0.plusSeconds(1), "dead");
        TaskInstance cancelled = delayed("mail", T0.plusSeconds(2), "cancelled");
        store.schedule(List.of(new NewFire(done, ""), new NewFire(dead, ""), new NewFire(cancelled, "")));
        walk(done, InstanceState.DISPATCHED, InstanceState.RUNNING, InstanceState.SUCCESS);
        walk(dead, InstanceState.DISPATCHED, InstanceState.RUNNING, InstanceState.FAILED, InstanceState.DEAD);
        walk(cancelled, InstanceState.CANCELLED);
        knowPartitions();

        assertThat(store.fillPartitions(COUNT, 10)).as("the DEAD instance only").isEqualTo(1);
        assertThat(store.fillPartitions(COUNT, 10)).isZero();
        assertThat(store.findOwned(Set.of(InstanceState.DEAD), null, 10, ALL))
                .extracting(o -> o.instance().id())
                .containsExactly(dead.id());
        assertThat(store.findOwned(EnumSet.of(InstanceState.SUCCESS, InstanceState.CANCELLED), null, 10, ALL))
                .isEmpty();
    }

    @Test
    void fillingRefusesAnotherCountThanTheStoresAndLimitsBelowOne() {
        knowPartitions();
        assertThatThrownBy(() -> store.fillPartitions(COUNT * 2, 10))
                .isInstanceOf(PartitionCountMismatchException.class)
                .hasMessageContaining("records " + COUNT + " partitions");
        assertThatThrownBy(() -> store.fillPartitions(0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and " + PartitionLeases.MAX_PARTITIONS);
        assertThatThrownBy(() -> store.fillPartitions(COUNT, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    /** The store as a cluster's store; skips the test for a store that keeps no partitions. */
    ClusterStore cluster() {
        if (!(store instanceof ClusterStore cluster)
                || cluster.partitionLeases().isEmpty()) {
            Assumptions.abort(store.getClass().getSimpleName() + " keeps no partitions");
            throw new AssertionError("unreachable");
        }
        return cluster;
    }

    /** Records the count in the store's partitions, as the first node does: the store writes it from now on. */
    void knowPartitions() {
        assertThat(cluster().partitionLeases().orElseThrow().partitions(COUNT)).isEqualTo(COUNT);
    }

    /** One instance of every origin, each due at its own time from {@code at}. */
    private static List<TaskInstance> everyOrigin(Instant at) {
        return List.of(
                scheduled("billing", at),
                of(
                        id(),
                        "billing",
                        at.plusSeconds(1),
                        InstanceOrigin.CATCH_UP,
                        TaskInstance.fireKey(at.plusSeconds(1))),
                onDemand("billing", at.plusSeconds(2)),
                delayed("mail", at.plusSeconds(3), "invoice-42"),
                delayed("mail", at.plusSeconds(4), null),
                of(id(), "ship", at.plusSeconds(5), InstanceOrigin.WORKFLOW, TaskInstance.runKey("run-7")));
    }

    /** {@code n} due instances of several tasks, in groups of equal times, written in one group. */
    private List<TaskInstance> manyDue(int n) {
        List<TaskInstance> all = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            Instant at = T0.plusSeconds(k / 6); // six per second: pages end inside groups of equal times
            all.add(k % 3 == 0 ? onDemand("task-" + (k % 11), at) : delayed("mail", at, "key-" + k));
        }
        store.schedule(all.stream().map(i -> new NewFire(i, "")).toList());
        return all;
    }

    private void walk(TaskInstance i, InstanceState... to) {
        InstanceState from = InstanceState.SCHEDULED;
        for (InstanceState next : to) {
            assertThat(store.transition(move(i.id(), from, next))).isTrue();
            from = next;
        }
    }

    /** Each SCHEDULED instance is read in its partition, and in none of the others. */
    private void assertEachIsInItsPartitionOnly(List<TaskInstance> instances) {
        for (TaskInstance i : instances) {
            int p = Partitions.of(i, COUNT);
            assertThat(ids(store.findScheduled(BOUND, null, null, 1_000, new int[] {p})))
                    .as("%s %s in partition %d", i.origin(), i.id(), p)
                    .contains(i.id());
            assertThat(ids(store.findScheduled(BOUND, null, null, 1_000, allBut(p))))
                    .as("%s %s outside partition %d", i.origin(), i.id(), p)
                    .doesNotContain(i.id());
        }
    }

    /** The partition a SCHEDULED instance is read in. */
    private int partitionOf(TaskInstance i) {
        for (int p = 0; p < COUNT; p++) {
            if (ids(store.findScheduled(BOUND, null, null, 1_000, new int[] {p}))
                    .contains(i.id())) {
                return p;
            }
        }
        throw new AssertionError(i.id() + " is in no partition");
    }

    private static List<TaskInstance> inPartitions(List<TaskInstance> all, int... partitions) {
        Set<Integer> wanted = IntStream.of(partitions).boxed().collect(java.util.stream.Collectors.toSet());
        return all.stream()
                .filter(i -> wanted.contains(Partitions.of(i, COUNT)))
                .sorted(DUE_ORDER)
                .toList();
    }

    private static List<TaskInstance> sorted(List<TaskInstance> all) {
        return all.stream().sorted(DUE_ORDER).toList();
    }

    private static int[] allBut(int p) {
        return IntStream.range(0, COUNT).filter(q -> q != p).toArray();
    }

    private static List<String> ids(List<?> instances) {
        return instances.stream()
                .map(o -> o instanceof OwnedInstance owned ? owned.instance().id() : ((TaskInstance) o).id())
                .toList();
    }

    private static String id() {
        return UUID.randomUUID().toString();
    }
}
