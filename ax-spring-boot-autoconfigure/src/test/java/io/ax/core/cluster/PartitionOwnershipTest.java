package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.test.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Partitioned ownership over several nodes in one JVM, on the in-memory store and a fake clock: each round every
 * live node heartbeats and then runs its ownership round, as its cluster thread does once per heartbeat.
 */
class PartitionOwnershipTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final int PARTITIONS = 256;
    private static final Duration HEARTBEAT = Duration.ofSeconds(1);
    private static final Duration LEASE = Duration.ofSeconds(5);
    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final Duration FRESH = Duration.ofSeconds(2);
    private static final Duration STRANDED = Duration.ofSeconds(3);

    private final FakeClock clock = new FakeClock(T0);
    private final LocalNodeRegistry registry = new LocalNodeRegistry(clock);
    private final LocalPartitionLeases leases = new LocalPartitionLeases(clock, registry);
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    /** Partition to its owner as the listeners tell it: never two at once. */
    private final Map<Integer, String> held = new HashMap<>();

    private int moved;

    @Test
    void oneToTwoToThreeToTwoNodesMovesOnlyWhatMustMove() {
        leases.partitions(PARTITIONS);
        start("n1");
        rounds(1);
        assertThat(owners()).containsOnly(Map.entry("n1", 256));

        start("n2");
        int before = moved;
        settle();
        assertThat(owners()).containsOnly(Map.entry("n1", 128), Map.entry("n2", 128));
        assertThat(moved - before).as("moves when n2 joins").isEqualTo(128);

        start("n3");
        before = moved;
        settle();
        assertThat(owners().values()).containsExactlyInAnyOrder(85, 85, 86);
        assertThat(moved - before).as("moves when n3 joins: only what n3 takes").isEqualTo(owners().get("n3"));

        Map<Integer, String> beforeStop = Map.copyOf(held);
        int n2had = owners().get("n2");
        before = moved;
        stop("n2"); // a graceful stop gives its partitions up at once
        rounds(1);
        assertThat(owners().keySet()).containsExactlyInAnyOrder("n1", "n3");
        assertThat(owners().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(PARTITIONS);
        assertThat(moved - before)
                .as("only n2's partitions move, within one round")
                .isEqualTo(n2had);
        beforeStop.forEach((p, owner) -> {
            if (!owner.equals("n2")) {
                assertThat(held.get(p)).as("partition " + p).isEqualTo(owner);
            }
        });
    }

    @Test
    void aDeadNodesPartitionsAreTakenWithinTheLeaseAndAHeartbeat() {
        leases.partitions(PARTITIONS);
        start("n1");
        start("n2");
        settle();
        kill("n2");
        int rounds = 0;
        while (owners().getOrDefault("n1", 0) < PARTITIONS) {
            rounds(1);
            rounds++;
            assertThat(rounds).as("rounds until n1 owns everything").isLessThanOrEqualTo((int)
                    (LEASE.plus(HEARTBEAT).toSeconds()));
        }
    }

    @Test
    void aDeadNodesPartitionsMoveOnceEachToTheirPlannedOwnersAndNoOtherPartitionMoves() {
        leases.partitions(PARTITIONS);
        start("n1");
        start("n2");
        start("n3");
        settle();
        Map<Integer, String> before = Map.copyOf(held);
        int n3had = owners().get("n3");
        int movesBefore = moved;
        kill("n3");
        // n1 runs its round first every time: it must not take n2's share of n3's partitions as stranded
        rounds((int) LEASE.plus(HEARTBEAT).toSeconds());
        settle();
        assertThat(owners().keySet()).containsExactlyInAnyOrder("n1", "n2");
        assertThat(owners().values()).containsExactlyInAnyOrder(128, 128);
        assertThat(moved - movesBefore)
                .as("moves after n3 died: each of its " + n3had + " partitions once")
                .isEqualTo(n3had);
        before.forEach((p, owner) -> {
            if (!owner.equals("n3")) {
                assertThat(held.get(p)).as("partition " + p + " of a live node").isEqualTo(owner);
            }
        });
    }

    @Test
    void aFlappingNodeDoesNotMovePartitionsBackAndForth() {
        leases.partitions(PARTITIONS);
        start("n1");
        start("n2");
        settle();
        start("n3");
        int before = moved;
        // n3 heartbeats for 2 s, then is silent for 6 s (dead), over and over: it never stays up for the settle time
        for (int cycle = 0; cycle < 5; cycle++) {
            rounds(2);
            nodes.get("n3").silent = true;
            rounds(6);
            nodes.get("n3").silent = false;
        }
        assertThat(owners()).doesNotContainKey("n3").containsOnly(Map.entry("n1", 128), Map.entry("n2", 128));
        assertThat(moved - before).as("nothing moved while n3 flapped").isZero();
    }

    @Test
    void aPartitionWhosePlannedOwnerNeverTakesItIsRescuedAndHandedOverLessAndLessOften() {
        leases.partitions(8);
        start("n1");
        start("n2");
        settle();
        // n2 stops running rounds but keeps heartbeating: the plan still gives it half, which it never takes again
        nodes.get("n2").ownership.releaseAll();
        nodes.get("n2").stuck = true;
        int unowned = 0;
        int rounds = 60;
        for (int r = 0; r < rounds; r++) {
            rounds(1);
            unowned += (int)
                    leases.read(LEASE).stream().filter(p -> p.owner() == null).count();
        }
        long handOvers = nodes.get("n1").ownership.moves() - 4 - 4; // its first four, and the first rescue of n2's
        assertThat(leases.read(LEASE))
                .as("after a rescue, held")
                .allSatisfy(p -> assertThat(p.owner()).isEqualTo("n1"));
        // rescued after 3 s, held 3 s, 6 s, 12 s, 24 s between hand-overs: 5 hand-overs in 60 s for each of the four
        assertThat(handOvers).as("hand-overs and rescues of n2's four").isLessThanOrEqualTo(4 * 2 * 5);
        assertThat(unowned)
                .as("partition-seconds without an owner, of " + 4 * rounds)
                .isLessThanOrEqualTo(4 * 3 * 6);
    }

    // ---- the cluster -------------------------------------------------------------------------------------------

    private final class Node {
        final String id;
        final String incarnation;
        final PartitionOwnership ownership;
        boolean silent;
        boolean stuck;

        Node(String id) {
            this.id = id;
            this.incarnation = id + "-inc";
            this.ownership = new PartitionOwnership(
                    leases,
                    id,
                    incarnation,
                    leases.read(LEASE).size(),
                    32,
                    LEASE,
                    FRESH,
                    SETTLE,
                    STRANDED,
                    new PartitionOwnership.Listener() {
                        @Override
                        public void gained(int partition, long epoch) {
                            String before = held.put(partition, id);
                            assertThat(before)
                                    .as("partition " + partition + " gained by " + id)
                                    .isNull();
                            moved++;
                        }

                        @Override
                        public void lost(int partition, long epoch) {
                            assertThat(held.remove(partition))
                                    .as("partition " + partition)
                                    .isEqualTo(id);
                        }
                    });
        }
    }

    private void start(String id) {
        Node n = new Node(id);
        registry.register(new NodeInfo(id, n.incarnation, "host", T0, Set.of("default"), 1), LEASE);
        nodes.put(id, n);
    }

    private void stop(String id) {
        Node n = nodes.remove(id);
        n.ownership.releaseAll();
        registry.remove(id, n.incarnation);
    }

    /** The process is gone: no heartbeat, no round, no release. Its partitions stay held until the lease passes. */
    private void kill(String id) {
        Node n = nodes.remove(id);
        n.ownership.owned().keySet().forEach(held::remove);
    }

    private void settle() {
        rounds((int) SETTLE.plus(HEARTBEAT.multipliedBy(2)).toSeconds());
    }

    private void rounds(int n) {
        for (int r = 0; r < n; r++) {
            clock.advance(HEARTBEAT);
            for (Node node : nodes.values()) {
                if (!node.silent) {
                    registry.heartbeat(node.id, node.incarnation, 1);
                }
            }
            List<NodeStatus> view = registry.nodes();
            long now = ChronoUnit.NANOS.between(T0, clock.instant());
            for (Node node : new ArrayList<>(nodes.values())) {
                if (!node.silent && !node.stuck) {
                    node.ownership.round(view, now);
                }
            }
        }
    }

    private Map<String, Integer> owners() {
        Map<String, Integer> counts = new HashMap<>();
        for (PartitionLease p : leases.read(LEASE)) {
            if (p.owner() != null) {
                counts.merge(p.owner(), 1, Integer::sum);
            }
        }
        return counts;
    }

    @Test
    void movedPartitionsAreLoggedAsRangesAndALongListIsCut() {
        assertThat(PartitionOwnership.ranges(List.of(9, 0, 1, 2, 3, 7, 10))).isEqualTo("[0-3, 7, 9-10]");
        assertThat(PartitionOwnership.ranges(List.of())).isEqualTo("[]");
        List<Integer> scattered = new java.util.ArrayList<>();
        for (int p = 0; p < 60; p += 2) {
            scattered.add(p);
        }
        assertThat(PartitionOwnership.logged(scattered))
                .isEqualTo("[0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, ... (30 in all)]");
        assertThat(PartitionOwnership.logged(List.of(1, 2, 3))).isEqualTo("[1-3]");
    }
}
