package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Partitioned ownership as the nodes' memberships run it, heartbeat by heartbeat, in one JVM on the nodes' shared
 * in-memory registry and partitions (real time, 100 ms heartbeats): a node alone owns everything from its start,
 * joining nodes take their share, a stopping node hands its partitions over at once, a node cut off from the store
 * stops deciding for its partitions by its own deadline, before anyone may take them, and a node configured with
 * another count does not start.
 */
class MembershipPartitionsTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final ClusterSettings FAST = new ClusterSettings(
                    Duration.ofMillis(100), Duration.ofMillis(600), Duration.ofMillis(300), Duration.ofMillis(100), 32)
            .withPartitions(64);

    private final AxClock clock = AxClock.system();
    private final LocalNodeRegistry registry = new LocalNodeRegistry(clock);
    private final LocalPartitionLeases partitions = new LocalPartitionLeases(clock, registry);
    private final LocalLeaderLease lease = new LocalLeaderLease(clock);
    /** Nodes whose calls to the registry fail, as if their connection to the store were cut. */
    private final Set<String> cut = ConcurrentHashMap.newKeySet();

    private final List<Membership> started = new ArrayList<>();

    @AfterEach
    void stopAll() {
        started.forEach(Membership::close);
    }

    private Membership node(String id, ClusterSettings settings) {
        Membership m = Memberships.of(id, "localhost", new CuttableRegistry(id), lease, clock, settings, partitions);
        m.start();
        started.add(m);
        return m;
    }

    private static PartitionTerms terms(Membership m) {
        return m.partitions().orElseThrow();
    }

    @Test
    void aNodeAloneOwnsEveryPartitionWhenItsStartReturns() {
        Membership n1 = node("n1", FAST);

        assertThat(terms(n1).owned()).hasSize(64);
        assertThat(terms(n1).decides()).isTrue();
        assertThat(terms(n1).epoch(0)).isPositive();
        assertThat(terms(n1).perNode()).containsExactly(Map.entry("n1", 64));
    }

    @Test
    void joiningNodesTakeTheirShareAndNoPartitionEverHasTwoOwners() {
        Membership n1 = node("n1", FAST);
        Membership n2 = node("n2", FAST);
        Membership n3 = node("n3", FAST);

        await().atMost(BOUND).pollInterval(Duration.ofMillis(20)).until(() -> {
            assertOneOwnerEach(n1, n2, n3);
            List<Integer> counts = List.of(
                    terms(n1).owned().size(),
                    terms(n2).owned().size(),
                    terms(n3).owned().size());
            return counts.stream().mapToInt(Integer::intValue).sum() == 64
                    && counts.stream().allMatch(c -> c == 21 || c == 22);
        });
        assertThat(terms(n3).gained()).isBetween(21L, 22L); // it took its share once, and only that
    }

    @Test
    void aNodeThatStopsHandsItsPartitionsOverAtOnce() {
        Membership n1 = node("n1", FAST);
        Membership n2 = node("n2", FAST);
        await().atMost(BOUND).until(() -> terms(n2).owned().size() == 32);

        n2.close();

        assertThat(partitions.read(FAST.lease()))
                .as("given up as the stop returns, not left to the lease")
                .noneMatch(p -> "n2".equals(p.owner()));
        await().atMost(BOUND).until(() -> terms(n1).owned().size() == 64);
    }

    @Test
    void aNodeCutOffFromTheStoreStopsDecidingBeforeAnotherMayTakeItsPartitions() {
        Membership n1 = node("n1", FAST);
        Membership n2 = node("n2", FAST);
        await().atMost(BOUND)
                .until(() -> terms(n1).owned().size() == 32 && terms(n2).owned().size() == 32);
        Map<Integer, Long> before = terms(n1).owned();

        cut.add("n1");

        // every look: no partition is decided by two nodes at once
        await().atMost(BOUND).pollInterval(Duration.ofMillis(10)).until(() -> {
            for (int p = 0; p < 64; p++) {
                assertThat(terms(n1).epoch(p) > 0 && terms(n2).epoch(p) > 0)
                        .as("partition %d decided by both", p)
                        .isFalse();
            }
            return terms(n2).owned().size() == 64;
        });
        assertThat(terms(n1).decides()).isFalse();
        assertThat(before.keySet())
                .allSatisfy(p -> assertThat(terms(n1).epoch(p)).isZero());
        assertThat(before)
                .as("taken at a higher epoch")
                .allSatisfy((p, epoch) -> assertThat(terms(n2).owned().get(p)).isGreaterThan(epoch));
    }

    @Test
    void aNodeConfiguredWithAnotherCountDoesNotStart() {
        node("n1", FAST);

        assertThatThrownBy(() -> node("n2", FAST.withPartitions(128)))
                .isInstanceOf(PartitionCountMismatchException.class)
                .hasMessageContaining("records 64 partitions")
                .hasMessageContaining("ax.cluster.partitions=128");
    }

    private static void assertOneOwnerEach(Membership... nodes) {
        Map<Integer, List<String>> owners = new HashMap<>();
        for (Membership m : nodes) {
            for (Integer p : terms(m).owned().keySet()) {
                owners.computeIfAbsent(p, k -> new ArrayList<>()).add(m.view().nodeId());
            }
        }
        Map<Integer, List<String>> twice = owners.entrySet().stream()
                .filter(e -> e.getValue().size() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertThat(twice).as("partitions with two owners").isEmpty();
    }

    /** The shared registry, failing every call of a node in {@link #cut}. */
    private final class CuttableRegistry implements NodeRegistry {

        private final String node;

        CuttableRegistry(String node) {
            this.node = node;
        }

        private void check() {
            if (cut.contains(node)) {
                throw new IllegalStateException("connection of " + node + " cut");
            }
        }

        @Override
        public void register(NodeInfo info, Duration staleAfter) {
            check();
            registry.register(info, staleAfter);
        }

        @Override
        public boolean heartbeat(String nodeId, String incarnation, int capacityFree) {
            check();
            return registry.heartbeat(nodeId, incarnation, capacityFree);
        }

        @Override
        public List<NodeStatus> nodes() {
            check();
            return registry.nodes();
        }

        @Override
        public boolean remove(String nodeId, String incarnation) {
            check();
            return registry.remove(nodeId, incarnation);
        }
    }
}
