package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node does not start beside a live node that speaks another cluster protocol (another AX version across a change
 * of protocol), and leaves no registration behind; a dead node of another protocol, or one of the same, lets it
 * start. Real time on the in-memory registry, with a 600 ms lease.
 */
class MixedClusterProtocolTest {

    private static final ClusterSettings FAST = new ClusterSettings(
                    Duration.ofMillis(100), Duration.ofMillis(600), Duration.ofMillis(300), Duration.ofMillis(100), 32)
            .withPartitions(16);

    private final AxClock clock = AxClock.system();
    private final LocalNodeRegistry registry = new LocalNodeRegistry(clock);
    private final LocalPartitionLeases partitions = new LocalPartitionLeases(clock, registry);
    private final LocalLeaderLease lease = new LocalLeaderLease(clock);
    private final List<Membership> started = new ArrayList<>();

    @AfterEach
    void stopAll() {
        started.forEach(Membership::close);
    }

    private Membership node(String id) {
        Membership m = Memberships.of(id, "host-" + id, registry, lease, clock, FAST, partitions);
        started.add(m);
        return m;
    }

    /** A node of another version, registered and heartbeating as that version would. */
    private void liveNodeOfProtocol(String id, int protocol) {
        registry.register(
                new NodeInfo(id, id + "-inc", "old-host", Instant.now(), Set.of("default"), 4, protocol), FAST.lease());
    }

    @Test
    void aNodeDoesNotStartBesideALiveNodeOfAnotherProtocolAndLeavesNoRegistration() {
        liveNodeOfProtocol("old", ClusterProtocol.CURRENT + 1);
        Membership fresh = node("n1");

        assertThatThrownBy(fresh::checkProtocol)
                .isInstanceOf(MixedClusterProtocolException.class)
                .hasMessageContaining("Node n1 speaks AX cluster protocol " + ClusterProtocol.CURRENT)
                .hasMessageContaining("old on old-host (protocol " + (ClusterProtocol.CURRENT + 1) + ")");
        assertThatThrownBy(fresh::start).isInstanceOfSatisfying(MixedClusterProtocolException.class, e -> {
            assertThat(e.nodeId()).isEqualTo("n1");
            assertThat(e.others()).extracting(NodeStatus::nodeId).containsExactly("old");
        });
        assertThat(registry.nodes()).extracting(NodeStatus::nodeId).containsExactly("old");
        assertThat(fresh.partitions())
                .as("it took part in no partition's ownership")
                .isEmpty();
    }

    @Test
    void aDeadNodeOfAnotherProtocolDoesNotStopAStart() {
        liveNodeOfProtocol("old", ClusterProtocol.CURRENT + 1);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> registry.nodes().stream().noneMatch(n -> n.aliveWithin(FAST.lease())));
        Membership fresh = node("n1");

        fresh.checkProtocol();
        fresh.start();

        assertThat(fresh.partitions().orElseThrow().owned()).hasSize(16);
    }

    @Test
    void nodesOfTheSameProtocolStartTogether() {
        liveNodeOfProtocol("peer", ClusterProtocol.CURRENT);
        Membership fresh = node("n1");

        fresh.checkProtocol();
        fresh.start();

        assertThat(registry.nodes()).extracting(NodeStatus::nodeId).containsExactly("n1", "peer");
    }
}
