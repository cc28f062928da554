package io.ax.bench.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ax.core.cluster.PartitionLease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What the partition part counts, on hand-written reads of a table of 8 partitions: which partitions moved, when the
 * cluster is balanced and a dead node's partitions are taken over, and how long partitions went without a live
 * owner. Times are nanos of a made-up monotonic clock; owners are written as node ids, "-" for none.
 */
class PartitionSnapshotTest {

    private static final long MS = 1_000_000;

    @Test
    void aPartitionMovedWhenItsEpochGrewAndTwiceWhenItGrewByTwo() {
        PartitionSnapshot before = read(0, owners("a a a a b b b b"), epochs(1, 1, 1, 1, 1, 1, 1, 1));
        PartitionSnapshot after = read(10, owners("a a c a b c b b"), epochs(1, 1, 2, 1, 1, 3, 1, 1));

        assertEquals(Set.of(2, 5), PartitionSnapshot.moved(before, after));
        assertEquals(Set.of(5), PartitionSnapshot.movedMoreThanOnce(before, after));
    }

    @Test
    void aPartitionMovedAwayAndBackHasMovedThoughItsOwnerIsTheSame() {
        PartitionSnapshot before = read(0, owners("a a a a b b b b"), epochs(1, 1, 1, 1, 1, 1, 1, 1));
        PartitionSnapshot after = read(10, owners("a a a a b b b b"), epochs(1, 3, 1, 1, 1, 1, 1, 1));

        assertEquals(Set.of(1), PartitionSnapshot.moved(before, after));
    }

    @Test
    void balancedMeansEveryPartitionOwnedByALiveMemberWithinOneOfAnEvenShare() {
        assertTrue(read(0, owners("a a a b b b c c"), epochs(1, 1, 1, 1, 1, 1, 1, 1))
                .balancedOver(Set.of("a", "b", "c")));
        assertFalse(read(0, owners("a a a a b b c c"), epochs(1, 1, 1, 1, 1, 1, 1, 1))
                .balancedOver(Set.of("a", "b", "c")));
        assertFalse(read(0, owners("a a a - b b c c"), epochs(1, 1, 1, 1, 1, 1, 1, 1))
                .balancedOver(Set.of("a", "b", "c")));
        assertFalse(read(0, owners("a a a a b b b b"), epochs(1, 1, 1, 1, 1, 1, 1, 1))
                .balancedOver(Set.of("a", "b", "c")));
    }

    @Test
    void aPartitionOfADeadOwnerIsNotOwned() {
        List<PartitionLease> rows = rows(owners("a a a a b b b b"), epochs(1, 1, 1, 1, 1, 1, 1, 1));
        rows.set(7, new PartitionLease(7, "b", "b-1", 1, false, Duration.ZERO));

        assertFalse(PartitionSnapshot.first(0, rows).balancedOver(Set.of("a", "b")));
    }

    @Test
    void aDeadNodesPartitionsAreTakenOverOnceAnotherLiveNodeOwnsEachAtAHigherEpoch() {
        PartitionSnapshot before = read(0, owners("a a a b b b c c"), epochs(1, 1, 1, 1, 1, 1, 1, 1));
        Map<Integer, Long> lost = before.ownedBy("c");

        assertFalse(read(10, owners("a a a b b b a c"), epochs(1, 1, 1, 1, 1, 1, 2, 1))
                .takenOver("c", lost));
        assertTrue(read(20, owners("a a a b b b a b"), epochs(1, 1, 1, 1, 1, 1, 2, 2))
                .takenOver("c", lost));
    }

    @Test
    void aLeavingNodesPartitionsWereGivenUpAtTheEarliestMoveTimeOfThoseStillFree() {
        PartitionSnapshot before = read(0, owners("a a a a b b b b"), epochs(1, 1, 1, 1, 1, 1, 1, 1));
        Map<Integer, Long> leaving = before.ownedBy("b");
        List<PartitionLease> rows = rows(owners("a a a a a - - b"), epochs(1, 1, 1, 1, 2, 1, 1, 1));
        rows.set(5, new PartitionLease(5, null, null, 1, false, Duration.ofMillis(40)));
        rows.set(6, new PartitionLease(6, null, null, 1, false, Duration.ofMillis(30)));

        assertEquals(
                60 * MS,
                PartitionSnapshot.first(100 * MS, rows).givenUpAt(leaving).getAsLong());
        assertTrue(before.givenUpAt(leaving).isEmpty());
    }

    @Test
    void aReadIsUnchangedSinceTheLastChangeItsPredecessorsSaw() {
        PartitionSnapshot first = read(0, owners("a a a a b b b b"), epochs(1, 1, 1, 1, 1, 1, 1, 1));
        PartitionSnapshot same = first.next(30 * MS, rows(owners("a a a a b b b b"), epochs(1, 1, 1, 1, 1, 1, 1, 1)));
        PartitionSnapshot changed = same.next(40 * MS, rows(owners("a a a a b b b c"), epochs(1, 1, 1, 1, 1, 1, 1, 2)));

        assertTrue(same.quietFor(30 * MS));
        assertFalse(changed.quietFor(1));
        assertTrue(changed.next(50 * MS, changed.rows()).quietFor(10 * MS));
    }

    @Test
    void aKilledNodesPartitionsHaveNoLiveOwnerFromTheKillThoughTheDatabaseStillTakesItForAlive() {
        OwnerlessSpans spans = new OwnerlessSpans(100 * MS);
        PartitionSnapshot before = read(0, owners("a a a a b b b b"), epochs(1, 1, 1, 1, 1, 1, 1, 1));
        spans.observe(before);
        spans.killed("b", 5 * MS, before);
        spans.observe(read(50 * MS, owners("a a a a b b b b"), epochs(1, 1, 1, 1, 1, 1, 1, 1)));

        assertEquals(4, spans.open());

        spans.observe(read(60 * MS, owners("a a a a a a b b"), epochs(1, 1, 1, 1, 2, 2, 1, 1)));
        spans.observe(read(205 * MS, owners("a a a a a a a a"), epochs(1, 1, 1, 1, 2, 2, 2, 2)));

        assertEquals(4, spans.spans());
        assertEquals(2, spans.overBound());
        assertEquals(200 * MS, spans.longestNanos(205 * MS));
        assertEquals(0, spans.open());
    }

    @Test
    void aPartitionGivenUpHasNoLiveOwnerSinceItsMoveTimeOnTheDatabasesClock() {
        OwnerlessSpans spans = new OwnerlessSpans(100 * MS);
        List<PartitionLease> released = rows(owners("a a a a b b b -"), epochs(1, 1, 1, 1, 1, 1, 1, 1));
        released.set(7, new PartitionLease(7, null, null, 1, false, Duration.ofMillis(30)));
        spans.observe(PartitionSnapshot.first(100 * MS, released));
        spans.observe(read(120 * MS, owners("a a a a b b b a"), epochs(1, 1, 1, 1, 1, 1, 1, 2)));

        assertEquals(1, spans.spans());
        assertEquals(50 * MS, spans.longestNanos(120 * MS));
    }

    private static PartitionSnapshot read(long nanos, String[] owners, long[] epochs) {
        return PartitionSnapshot.first(nanos, rows(owners, epochs));
    }

    private static List<PartitionLease> rows(String[] owners, long[] epochs) {
        List<PartitionLease> rows = new ArrayList<>();
        for (int p = 0; p < owners.length; p++) {
            String owner = owners[p].equals("-") ? null : owners[p];
            rows.add(new PartitionLease(
                    p, owner, owner == null ? null : owner + "-1", epochs[p], owner != null, Duration.ofSeconds(1)));
        }
        return rows;
    }

    private static String[] owners(String owners) {
        return owners.split(" ");
    }

    private static long[] epochs(long... epochs) {
        return epochs;
    }
}
