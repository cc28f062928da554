package io.ax.test.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.Lease;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.cluster.PartitionLease;
import io.ax.core.cluster.PartitionLeases;
import io.ax.core.cluster.Partitions;
import io.ax.core.store.NewFire;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Writes fenced by the epoch of their row's partition ({@link Transition#partitionEpoch()}, {@link
 * NewFire#partitionEpoch()}): each applies only while the partition is at that epoch; one whose partition moved is
 * rejected with a {@link FencedOutException} that names the partition and changes nothing (in a group, the whole
 * group); a row without a partition fails the fence; a fenced write that loses to another writer at the current epoch
 * is lost, not fenced out; and writes that carry no partition fence behave as they always did while partitions move.
 * Node n1 owns every partition; n2 takes one after n1 is gone. How a fenced write in flight is ordered against a take
 * in flight is each database's, shown by {@code PartitionFenceTest}. Part of {@link InstanceStoreContract}; skipped
 * for a store that keeps no partitions.
 */
abstract class PartitionFenceContract extends PartitionContract {

    private static final Duration LONG = Duration.ofMinutes(5);
    /**
     * More rows than one JDBC batch (500) holds, and, with {@link #PAYLOAD}, more payload bytes than one set-based
     * insert carries on PostgreSQL (8 MiB): the group goes as several statements.
     */
    private static final int BIG = 1_100;

    private static final byte[] PAYLOAD = new byte[8 * 1024];

    /** n1's epoch of each partition, by partition. */
    private long[] epochs;

    // ---- one change ----------------------------------------------------------------------------------------------

    @Test
    void aChangeFencedByItsPartitionAppliesAtThePartitionsEpoch() {
        ownedByN1();
        TaskInstance i = inPartition(3, T0);
        store.schedule(List.of(new NewFire(i, "")));

        assertThat(store.transition(claim(i).fencedByPartition(epochs[3]))).isTrue();
        assertThat(state(i.id())).isEqualTo(InstanceState.RUNNING);
        assertThat(trail(i.id())).endsWith(InstanceState.SCHEDULED, InstanceState.RUNNING);
        assertThat(epochOf(i)).as("the epoch it was decided at").isEqualTo(epochs[3]);
    }

    @Test
    void aFencedChangeThatLosesToAnotherWriterAtTheCurrentEpochIsLostNotFencedOut() {
        ownedByN1();
        TaskInstance i = inPartition(3, T0);
        store.schedule(List.of(new NewFire(i, "")));
        assertThat(store.transition(move(i.id(), InstanceState.SCHEDULED, InstanceState.CANCELLED)))
                .isTrue();

        assertThat(store.transition(claim(i).fencedByPartition(epochs[3]))).isFalse();
        assertThat(store.transition(move("unknown", InstanceState.SCHEDULED, InstanceState.RUNNING)
                        .fencedByPartition(epochs[3])))
                .as("an unknown instance")
                .isFalse();
    }

    @Test
    void aChangeWhosePartitionMovedIsRejectedNamingThePartitionAndChangesNothing() {
        ownedByN1();
        TaskInstance i = inPartition(3, T0);
        store.schedule(List.of(new NewFire(i, "")));
        long taken = movedToN2(3);

        assertFencedOut(() -> store.transition(claim(i).fencedByPartition(epochs[3])), 3, epochs[3]);
        assertThat(state(i.id())).isEqualTo(InstanceState.SCHEDULED);
        assertThat(trail(i.id())).containsExactly(InstanceState.CREATED, InstanceState.SCHEDULED);
        assertThat(store.transition(claim(i).fencedByPartition(taken)))
                .as("the new owner's")
                .isTrue();
    }

    @Test
    void aChangeOfARowWithoutAPartitionFailsThePartitionFenceUntilTheRowHasOne() {
        TaskInstance i = delayed("mail", T0, "written-before-the-count");
        store.schedule(List.of(new NewFire(i, "")));
        ownedByN1();
        int p = Partitions.of(i, COUNT);

        assertFencedOut(
                () -> store.transition(claim(i).fencedByPartition(epochs[p])),
                FencedOutException.NO_PARTITION,
                epochs[p]);
        assertThat(state(i.id())).isEqualTo(InstanceState.SCHEDULED);

        assertThat(store.fillPartitions(COUNT, 10)).isEqualTo(1);
        assertThat(store.transition(claim(i).fencedByPartition(epochs[p]))).isTrue();
    }

    @Test
    void changesWithoutAPartitionFenceApplyAsBeforeWhilePartitionsMove() {
        ownedByN1();
        TaskInstance a = inPartition(3, T0);
        TaskInstance b = inPartition(3, T0.plusSeconds(1));
        store.schedule(List.of(new NewFire(a, ""), new NewFire(b, "")));
        movedToN2(3);
        Lease leader = cluster().leaderLease().acquire("n2", LONG).orElseThrow();

        assertThat(store.transition(claim(a))).as("unfenced").isTrue();
        assertThat(store.transition(claim(b).assignedTo("n2", leader.epoch())))
                .as("by the leader")
                .isTrue();
        assertThat(epochOf(a)).isZero();
        assertThat(epochOf(b)).isEqualTo(leader.epoch());
        assertFencedOut(
                () -> store.transition(move(a.id(), InstanceState.RUNNING, InstanceState.SUCCESS)
                        .assignedTo("n1", leader.epoch() + 1)),
                FencedOutException.LEADER,
                leader.epoch() + 1);
        assertThat(state(a.id())).isEqualTo(InstanceState.RUNNING);
    }

    // ---- a group of changes --------------------------------------------------------------------------------------

    @Test
    void aGroupOfChangesAcrossPartitionsAppliesEachAtItsPartitionsEpoch() {
        ownedByN1();
        List<TaskInstance> group = oneInEachPartition(T0);
        TaskInstance unfenced = inPartition(2, T0.plusSeconds(30));
        schedule(group, unfenced);
        assertThat(store.transition(move(group.get(5).id(), InstanceState.SCHEDULED, InstanceState.CANCELLED)))
                .isTrue();
        List<Transition> claims = new ArrayList<>(fencedClaims(group));
        claims.add(claim(unfenced));
        // the same instance twice: the second change follows on from the first, fenced by the same partition
        claims.add(move(group.get(1).id(), InstanceState.RUNNING, InstanceState.SUCCESS)
                .fencedByPartition(epochs[1]));

        assertThat(store.transitionAll(claims))
                .as("the cancelled one lost")
                .containsExactly(true, true, true, true, true, false, true, true, true, true);
        assertThat(state(group.get(1).id())).isEqualTo(InstanceState.SUCCESS);
        assertThat(state(group.get(7).id())).isEqualTo(InstanceState.RUNNING);
        assertThat(state(unfenced.id())).isEqualTo(InstanceState.RUNNING);
        assertThat(epochOf(group.get(1))).isEqualTo(epochs[1]);
        assertThat(epochOf(group.get(7))).isEqualTo(epochs[7]);
        assertThat(epochOf(unfenced)).as("decided at no epoch").isZero();
    }

    @Test
    void aGroupWithAChangeWhosePartitionMovedIsRejectedWholeNamingThatPartition() {
        ownedByN1();
        List<TaskInstance> group = oneInEachPartition(T0);
        TaskInstance unfenced = inPartition(2, T0.plusSeconds(30));
        schedule(group, unfenced);
        movedToN2(5);
        List<Transition> claims = new ArrayList<>(fencedClaims(group));
        claims.add(0, claim(unfenced));

        assertFencedOut(() -> store.transitionAll(claims), 5, epochs[5]);
        assertThat(group).allSatisfy(i -> {
            assertThat(state(i.id())).isEqualTo(InstanceState.SCHEDULED);
            assertThat(trail(i.id())).containsExactly(InstanceState.CREATED, InstanceState.SCHEDULED);
        });
        assertThat(state(unfenced.id())).as("rolled back with the group").isEqualTo(InstanceState.SCHEDULED);
    }

    @Test
    void aGroupWithAChangeOfARowWithoutAPartitionIsRejectedWhole() {
        TaskInstance old = delayed("mail", T0, "written-before-the-count");
        store.schedule(List.of(new NewFire(old, "")));
        ownedByN1();
        List<TaskInstance> group = oneInEachPartition(T0.plusSeconds(1));
        schedule(group);
        List<Transition> claims = new ArrayList<>(fencedClaims(group));
        claims.add(claim(old).fencedByPartition(epochs[Partitions.of(old, COUNT)]));

        assertFencedOut(
                () -> store.transitionAll(claims), FencedOutException.NO_PARTITION, epochs[Partitions.of(old, COUNT)]);
        assertThat(group).allSatisfy(i -> assertThat(state(i.id())).isEqualTo(InstanceState.SCHEDULED));
        assertThat(state(old.id())).isEqualTo(InstanceState.SCHEDULED);
    }

    @Test
    void aGroupOfChangesWithoutPartitionFencesAppliesAsBeforeWhilePartitionsMove() {
        ownedByN1();
        List<TaskInstance> group = oneInEachPartition(T0);
        schedule(group);
        movedToN2(5);
        Lease leader = cluster().leaderLease().acquire("n2", LONG).orElseThrow();
        List<Transition> claims = new ArrayList<>();
        for (int k = 0; k < group.size(); k++) {
            claims.add(k % 2 == 0 ? claim(group.get(k)) : claim(group.get(k)).assignedTo("n2", leader.epoch()));
        }

        assertThat(store.transitionAll(claims)).containsOnly(true).hasSize(COUNT);
        assertThat(group).allSatisfy(i -> assertThat(state(i.id())).isEqualTo(InstanceState.RUNNING));
    }

    // ---- a group of new fires ------------------------------------------------------------------------------------

    @Test
    void aGroupOfFiresAcrossPartitionsIsWrittenEachAtItsPartitionsEpoch() {
        ownedByN1();
        TaskInstance first = inPartition(4, T0);
        store.schedule(List.of(new NewFire(first, "").fencedByPartition(epochs[4])));
        // twice: the second group meets what the store learnt from the first (MariaDB's refusal of a batch of
        // INSERT ... SELECT)
        for (int round = 0; round < 2; round++) {
            Instant at = T0.plusSeconds(100 * (round + 1));
            List<TaskInstance> group = oneInEachPartition(at);
            List<NewFire> fires = new ArrayList<>(fenced(group));
            TaskInstance unfenced = inPartition(6, at.plusSeconds(50));
            fires.add(3, new NewFire(unfenced, ""));
            // a second fire of the first one's key, fenced at the current epoch: a duplicate, not fenced out
            fires.add(new NewFire(delayed("mail", at.plusSeconds(60), first.key()), "").fencedByPartition(epochs[4]));

            boolean[] written = store.schedule(fires);

            assertThat(written).as("round %d", round).hasSize(COUNT + 2);
            for (int k = 0; k < written.length; k++) {
                assertThat(written[k]).as("round %d, fire %d", round, k).isEqualTo(k != COUNT + 1);
            }
            group.add(unfenced);
            assertEachWrittenInItsPartition(group);
        }
    }

    @Test
    void aGroupOfFiresWithOneWhosePartitionMovedIsRejectedWholeNamingThatPartition() {
        ownedByN1();
        movedToN2(6);
        List<TaskInstance> group = oneInEachPartition(T0);
        List<NewFire> fires = new ArrayList<>(fenced(group));
        TaskInstance unfenced = inPartition(1, T0.plusSeconds(50));
        fires.add(0, new NewFire(unfenced, ""));
        Lease leader = cluster().leaderLease().acquire("n1", LONG).orElseThrow();

        assertFencedOut(() -> store.schedule(fires), 6, epochs[6]);
        assertFencedOut(() -> store.schedule(fires, leader.epoch()), 6, epochs[6]);
        assertThat(store.findAll(ids(group))).as("nothing written").isEmpty();
        assertThat(store.find(unfenced.id())).as("rolled back with the group").isEmpty();
    }

    @Test
    void aFireFencedByItsPartitionIsRejectedWhileTheStoreWritesRowsWithoutOne() {
        cluster(); // the count not recorded yet: the store would write the row without a partition
        TaskInstance i = delayed("mail", T0, "early");

        assertFencedOut(
                () -> store.schedule(List.of(new NewFire(i, "").fencedByPartition(1))),
                FencedOutException.NO_PARTITION,
                1);
        assertThat(store.find(i.id())).isEmpty();
    }

    @Test
    void aGroupOfFiresWithoutPartitionFencesIsWrittenAsBeforeWhilePartitionsMove() {
        ownedByN1();
        movedToN2(0);
        movedToN2(6);
        Lease leader = cluster().leaderLease().acquire("n2", LONG).orElseThrow();
        List<TaskInstance> unfenced = oneInEachPartition(T0);
        List<TaskInstance> byTheLeader = oneInEachPartition(T0.plusSeconds(10));

        assertThat(store.schedule(unfenced.stream().map(i -> new NewFire(i, "")).toList()))
                .containsOnly(true)
                .hasSize(COUNT);
        assertThat(store.schedule(
                        byTheLeader.stream().map(i -> new NewFire(i, "")).toList(), leader.epoch()))
                .containsOnly(true)
                .hasSize(COUNT);
        assertEachWrittenInItsPartition(unfenced);
        assertEachWrittenInItsPartition(byTheLeader);
    }

    // ---- groups of many rows: several batches, several set-based statements ------------------------------------

    @Test
    void aBigGroupOfFiresOrOfChangesIsFencedRowByRow() {
        ownedByN1();
        List<TaskInstance> many = new ArrayList<>();
        for (int n = 0; n < BIG; n++) {
            many.add(delayed("mail", T0.plusMillis(n), "big-" + n));
        }
        assertThat(store.schedule(fencedWithPayloads(many))).containsOnly(true).hasSize(BIG);

        movedToN2(2);
        List<TaskInstance> more = new ArrayList<>();
        for (int n = 0; n < BIG; n++) {
            more.add(delayed("mail", T0.plusSeconds(10).plusMillis(n), "more-" + n));
        }
        assertFencedOut(() -> store.schedule(fencedWithPayloads(more)), 2, epochs[2]);
        assertThat(store.findAll(ids(more))).as("nothing of the second group").isEmpty();

        assertFencedOut(() -> store.transitionAll(fencedClaims(many)), 2, epochs[2]);
        assertThat(store.findAll(ids(many)))
                .hasSize(BIG)
                .allSatisfy(o -> assertThat(o.instance().state()).isEqualTo(InstanceState.SCHEDULED));

        List<TaskInstance> elsewhere =
                many.stream().filter(i -> Partitions.of(i, COUNT) != 2).toList();
        assertThat(store.transitionAll(fencedClaims(elsewhere)))
                .containsOnly(true)
                .hasSize(elsewhere.size());
        assertThat(store.findAll(ids(elsewhere)))
                .allSatisfy(o -> assertThat(o.instance().state()).isEqualTo(InstanceState.RUNNING));
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    /** n1 and n2 alive, n1 owning every partition: {@link #epochs} holds its epoch of each. */
    private void ownedByN1() {
        knowPartitions();
        cluster().nodeRegistry().register(node("n1", "inc-1"), LONG);
        cluster().nodeRegistry().register(node("n2", "inc-2"), LONG);
        List<PartitionLease> taken =
                leases().takeAll(IntStream.range(0, COUNT).boxed().toList(), "n1", "inc-1", LONG);
        assertThat(taken).hasSize(COUNT);
        epochs = new long[COUNT];
        taken.forEach(p -> epochs[p.partition()] = p.epoch());
    }

    /** n1 is gone (its node row removed: dead at once) and n2 takes {@code partition}: the new epoch. */
    private long movedToN2(int partition) {
        cluster().nodeRegistry().remove("n1", "inc-1");
        long taken = leases().take(partition, "n2", "inc-2", LONG).orElseThrow().epoch();
        assertThat(taken).isGreaterThan(epochs[partition]);
        return taken;
    }

    private PartitionLeases leases() {
        return cluster().partitionLeases().orElseThrow();
    }

    private static NodeInfo node(String id, String incarnation) {
        return new NodeInfo(id, incarnation, "host", T0, Set.of("default"), 1);
    }

    /** A delayed instance whose key puts it in {@code partition}. */
    private static TaskInstance inPartition(int partition, Instant at) {
        while (true) {
            String key = "key-" + UUID.randomUUID();
            if (Partitions.of(key, COUNT) == partition) {
                return delayed("mail", at, key);
            }
        }
    }

    /** One instance in each partition, partition 0 first. */
    private static List<TaskInstance> oneInEachPartition(Instant at) {
        List<TaskInstance> all = new ArrayList<>();
        for (int p = 0; p < COUNT; p++) {
            all.add(inPartition(p, at.plusSeconds(p)));
        }
        return all;
    }

    private void schedule(List<TaskInstance> group, TaskInstance... more) {
        List<NewFire> fires = new ArrayList<>();
        group.forEach(i -> fires.add(new NewFire(i, "")));
        for (TaskInstance i : more) {
            fires.add(new NewFire(i, ""));
        }
        assertThat(store.schedule(fires)).containsOnly(true);
    }

    /** The claim an owner writes at the fire time: SCHEDULED -&gt; RUNNING in one write. */
    private static Transition claim(TaskInstance i) {
        return move(i.id(), InstanceState.SCHEDULED, InstanceState.RUNNING);
    }

    /** Each instance's claim, fenced by n1's epoch of its partition. */
    private List<Transition> fencedClaims(List<TaskInstance> instances) {
        return instances.stream()
                .map(i -> claim(i).fencedByPartition(epochs[Partitions.of(i, COUNT)]))
                .toList();
    }

    /** Each instance as a fire fenced by n1's epoch of its partition. */
    private List<NewFire> fenced(List<TaskInstance> instances) {
        return instances.stream()
                .map(i -> new NewFire(i, "").fencedByPartition(epochs[Partitions.of(i, COUNT)]))
                .toList();
    }

    private List<NewFire> fencedWithPayloads(List<TaskInstance> instances) {
        return instances.stream()
                .map(i -> new NewFire(i, "", PAYLOAD, epochs[Partitions.of(i, COUNT)]))
                .toList();
    }

    /** Each instance is SCHEDULED and read in its own partition. */
    private void assertEachWrittenInItsPartition(List<TaskInstance> instances) {
        for (TaskInstance i : instances) {
            int p = Partitions.of(i, COUNT);
            assertThat(store.findScheduled(T0.plusSeconds(3_600), null, null, 1_000, new int[] {p}))
                    .as("%s in partition %d", i.id(), p)
                    .extracting(TaskInstance::id)
                    .contains(i.id());
        }
    }

    private static void assertFencedOut(ThrowingCallable write, int partition, long epoch) {
        assertThatThrownBy(write).isInstanceOfSatisfying(FencedOutException.class, e -> {
            assertThat(e.partition()).as("the partition").isEqualTo(partition);
            assertThat(e.epoch()).as("the epoch").isEqualTo(epoch);
        });
    }

    /** The epoch the instance's row records: that of the last change decided at one. */
    private long epochOf(TaskInstance i) {
        return store.findAll(List.of(i.id())).get(0).epoch();
    }

    private static List<String> ids(List<TaskInstance> instances) {
        return instances.stream().map(TaskInstance::id).toList();
    }
}
