package io.ax.test.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.ax.core.cluster.ClusterProtocol;
import io.ax.core.cluster.NodeIdInUseException;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.NodeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link NodeRegistry} must have. A store's test extends this class and supplies a fresh, empty
 * registry ({@link #newRegistry()}). Time is the store's: a store on a real clock lets it pass by itself, a store on
 * a fake clock moves it in {@link #advanceStoreClock}; either way the suite waits for what the store reports, with a
 * bound, and never sleeps.
 */
public abstract class NodeRegistryContract {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    /** Longer than any test runs: a heartbeat never goes stale by itself here. */
    protected static final Duration LONG = Duration.ofMinutes(5);
    /** Short enough to wait out, long enough for a few statements on a loaded database. */
    protected static final Duration SHORT = Duration.ofMillis(300);
    /** How long a wait for the store may take beyond the time it waits out. */
    private static final Duration BOUND = Duration.ofSeconds(10);

    protected NodeRegistry registry;

    /** A registry with no node in it. */
    protected abstract NodeRegistry newRegistry();

    /** Moves the store's clock forward. Stores on a real clock do nothing: their time passes by itself. */
    protected void advanceStoreClock(Duration duration) {}

    /**
     * The same store as a node whose own idea of time is far off would use it. The default is the store itself, for
     * stores that have no node-side time to skew.
     */
    protected NodeRegistry sameStoreSeenFromASkewedNode() {
        return registry;
    }

    @BeforeEach
    void freshRegistry() {
        registry = newRegistry();
    }

    @Test
    void aRegisteredNodeIsListedWithWhatItRegistered() {
        registry.register(node("n1", "inc-1", "host-1"), LONG);
        assertThat(registry.nodes()).singleElement().satisfies(n -> {
            assertThat(n.nodeId()).isEqualTo("n1");
            assertThat(n.incarnation()).isEqualTo("inc-1");
            assertThat(n.host()).isEqualTo("host-1");
            assertThat(n.startedAt()).isEqualTo(T0);
            assertThat(n.groups()).containsExactlyInAnyOrder("default", "reports");
            assertThat(n.capacityFree()).as("all of its capacity").isEqualTo(8);
            assertThat(n.heartbeatAge()).isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(LONG);
            assertThat(n.aliveWithin(LONG)).isTrue();
        });
    }

    @Test
    void aNodeIsListedWithTheClusterProtocolItRegisteredAndARegistrationAgainRecordsItsNewOne() {
        registry.register(new NodeInfo("n1", "inc-1", "host-1", T0, Set.of("default"), 4, 7), LONG);
        registry.register(node("n2", "inc-1", "host-2"), LONG);
        assertThat(registry.nodes())
                .extracting(NodeStatus::nodeId, NodeStatus::protocol)
                .containsExactly(tuple("n1", 7), tuple("n2", ClusterProtocol.CURRENT));

        registry.register(new NodeInfo("n1", "inc-1", "host-1", T0, Set.of("default"), 4, 8), LONG);
        assertThat(registry.nodes()).extracting(NodeStatus::protocol).containsExactly(8, ClusterProtocol.CURRENT);
    }

    @Test
    void aNodeServingNoGroupIsListedWithNone() {
        registry.register(new NodeInfo("n1", "inc-1", "host-1", T0, Set.of(), 0), LONG);
        assertThat(registry.nodes()).singleElement().satisfies(n -> {
            assertThat(n.groups()).isEmpty();
            assertThat(n.capacityFree()).isZero();
        });
    }

    @Test
    void nodesAreListedInNodeIdOrder() {
        for (String id : List.of("n-b", "n-a", "N-c", "n-10", "n-1")) {
            registry.register(node(id, "inc-" + id, "host"), LONG);
        }
        assertThat(registry.nodes()).extracting(NodeStatus::nodeId).containsExactly("N-c", "n-1", "n-10", "n-a", "n-b");
    }

    @Test
    void aHeartbeatRecordsTheFreeCapacityAndResetsTheAge() {
        registry.register(node("n1", "inc-1", "host-1"), LONG);
        waitForHeartbeatAge("n1", SHORT);
        assertThat(registry.heartbeat("n1", "inc-1", 3)).isTrue();
        assertThat(status("n1")).satisfies(n -> {
            assertThat(n.capacityFree()).isEqualTo(3);
            assertThat(n.heartbeatAge()).isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(SHORT);
        });
    }

    @Test
    void aNodeThatStopsSaysItLeavesAndStaysAlive() {
        registry.register(node("n1", "inc-1", "host-1"), LONG);
        assertThat(status("n1").leaving()).isFalse();
        assertThat(registry.heartbeat("n1", "inc-1", NodeStatus.LEAVING)).isTrue();
        assertThat(status("n1")).satisfies(n -> {
            assertThat(n.leaving()).isTrue();
            assertThat(n.aliveWithin(LONG)).isTrue();
        });
        assertThatThrownBy(() -> registry.heartbeat("n1", "inc-1", -2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void heartbeatAgeIsMeasuredOnTheStoreClock() {
        registry.register(node("n1", "inc-1", "host-1"), LONG);
        NodeStatus fresh = status("n1");
        waitForHeartbeatAge("n1", SHORT);
        NodeStatus later = status("n1");
        assertThat(later.lastHeartbeat()).as("no heartbeat since").isEqualTo(fresh.lastHeartbeat());
        assertThat(later.heartbeatAge()).isGreaterThanOrEqualTo(SHORT);
        assertThat(later.aliveWithin(SHORT)).isFalse();
        assertThat(later.aliveWithin(LONG)).isTrue();
    }

    @Test
    void aHeartbeatOfAnUnknownNodeChangesNothing() {
        assertThat(registry.heartbeat("ghost", "inc-1", 1)).isFalse();
        assertThat(registry.nodes()).isEmpty();
    }

    @Test
    void removeDeletesTheRowOfItsOwnIncarnationOnly() {
        registry.register(node("n1", "inc-1", "host-1"), LONG);
        assertThat(registry.remove("n1", "inc-0")).isFalse();
        assertThat(registry.nodes()).hasSize(1);
        assertThat(registry.remove("n1", "inc-1")).isTrue();
        assertThat(registry.nodes()).isEmpty();
        assertThat(registry.remove("n1", "inc-1")).isFalse();
        assertThat(registry.heartbeat("n1", "inc-1", 1)).isFalse();
    }

    @Test
    void aRemovedNodeIdCanBeRegisteredAgainAtOnce() {
        registry.register(node("n1", "inc-1", "host-1"), LONG);
        registry.remove("n1", "inc-1");
        registry.register(node("n1", "inc-2", "host-2"), LONG);
        assertThat(status("n1").incarnation()).isEqualTo("inc-2");
    }

    @Test
    void aSecondIncarnationWithAFreshHeartbeatIsRefusedSayingWhereTheIdIsInUse() {
        registry.register(node("n1", "inc-1", "host-1"), LONG);
        Throwable refused = catchThrowable(() -> registry.register(node("n1", "inc-2", "host-2"), LONG));
        assertThat(refused)
                .isInstanceOf(NodeIdInUseException.class)
                .hasMessageContaining("'n1'")
                .hasMessageContaining("host-1")
                .hasMessageContaining("ax.node-id");
        assertThat(((NodeIdInUseException) refused).nodeId()).isEqualTo("n1");
        assertThat(status("n1"))
                .extracting(NodeStatus::incarnation, NodeStatus::host)
                .containsExactly("inc-1", "host-1");
        assertThat(registry.heartbeat("n1", "inc-2", 1)).isFalse();
    }

    @Test
    void registeringTheSameIncarnationAgainRefreshesItsRow() {
        registry.register(node("n1", "inc-1", "host-1"), LONG);
        waitForHeartbeatAge("n1", SHORT);
        registry.register(new NodeInfo("n1", "inc-1", "host-1", T0, Set.of("batch"), 2), LONG);
        assertThat(status("n1")).satisfies(n -> {
            assertThat(n.groups()).containsExactly("batch");
            assertThat(n.capacityFree()).isEqualTo(2);
            assertThat(n.heartbeatAge()).isLessThan(SHORT);
        });
    }

    @Test
    void aStaleIncarnationIsTakenOverAndItsHeartbeatsThenFail() {
        registry.register(node("n1", "inc-1", "host-1"), SHORT);
        waitForHeartbeatAge("n1", SHORT);
        registry.register(node("n1", "inc-2", "host-2"), SHORT);
        assertThat(registry.nodes()).singleElement().satisfies(n -> {
            assertThat(n.incarnation()).isEqualTo("inc-2");
            assertThat(n.host()).isEqualTo("host-2");
            assertThat(n.heartbeatAge()).isLessThan(SHORT);
        });
        assertThat(registry.heartbeat("n1", "inc-1", 1)).isFalse();
        assertThat(registry.remove("n1", "inc-1")).isFalse();
        assertThat(registry.heartbeat("n1", "inc-2", 1)).isTrue();
    }

    @Test
    void concurrentRegistrationsOfOneIdHaveExactlyOneWinner() throws Exception {
        for (int round = 0; round < 10; round++) {
            String id = "race-" + round;
            List<String> winners = race(id, LONG);
            assertThat(winners).as("round " + round).hasSize(1);
            assertThat(status(id).incarnation()).isEqualTo("inc-" + winners.get(0));
        }
    }

    @Test
    void concurrentTakeoversOfOneStaleIdHaveExactlyOneWinner() throws Exception {
        // long enough that no loser of a race comes so late that it finds the winner's row stale already
        Duration staleAfter = Duration.ofSeconds(1);
        int rounds = 5;
        for (int round = 0; round < rounds; round++) {
            registry.register(node("stale-" + round, "old", "old-host"), staleAfter);
        }
        waitForHeartbeatAge("stale-" + (rounds - 1), staleAfter); // the last registered: every other one is older
        for (int round = 0; round < rounds; round++) {
            String id = "stale-" + round;
            List<String> winners = race(id, staleAfter);
            assertThat(winners).as(id).hasSize(1);
            assertThat(status(id).incarnation()).isEqualTo("inc-" + winners.get(0));
            assertThat(registry.heartbeat(id, "old", 1)).isFalse();
        }
    }

    @Test
    void aNodeWhoseTimeIsSkewedIsListedWithTheStoresAgeAndCannotTakeAFreshId() {
        NodeRegistry skewed = sameStoreSeenFromASkewedNode();
        skewed.register(node("skewed", "inc-1", "host-1"), LONG);
        registry.register(node("n1", "inc-1", "host-1"), LONG);
        for (NodeRegistry view : List.of(registry, skewed)) {
            assertThat(view.nodes())
                    .extracting(NodeStatus::heartbeatAge)
                    .allSatisfy(age -> assertThat(age)
                            .isGreaterThanOrEqualTo(Duration.ZERO)
                            .isLessThan(LONG));
        }
        // a node whose clock ran an hour or more ahead would find n1's heartbeat an hour old
        assertThatThrownBy(() -> skewed.register(node("n1", "inc-2", "host-2"), Duration.ofHours(1)))
                .isInstanceOf(NodeIdInUseException.class);
        assertThat(skewed.heartbeat("skewed", "inc-1", 1)).isTrue();
        assertThat(status("skewed").heartbeatAge())
                .isGreaterThanOrEqualTo(Duration.ZERO)
                .isLessThan(LONG);
    }

    @Test
    void invalidRegistrationsAreRefused() {
        assertThatThrownBy(() -> registry.register(node("n1", "inc-1", "host-1"), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> registry.register(new NodeInfo("n1", "inc-1", "host-1", T0, Set.of("a,b"), 1), LONG))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a,b");
        assertThatThrownBy(() -> registry.register(null, LONG)).isInstanceOf(NullPointerException.class);
        assertThat(registry.nodes()).isEmpty();
    }

    /** 16 processes register {@code id} at once, each as its own incarnation; returns the winners' numbers. */
    private List<String> race(String id, Duration staleAfter) throws Exception {
        List<String> winners = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> others = Collections.synchronizedList(new ArrayList<>());
        LeaderLeaseContract.onManyNodes(process -> {
            String n = process.substring(process.indexOf('-') + 1);
            try {
                registry.register(node(id, "inc-" + n, "host-" + n), staleAfter);
                winners.add(n);
            } catch (NodeIdInUseException e) {
                // the expected way to lose
            } catch (RuntimeException e) {
                others.add(e);
            }
        });
        assertThat(others).as("failures other than NodeIdInUseException").isEmpty();
        return winners;
    }

    /** Waits until the store reports {@code nodeId}'s heartbeat at least {@code age} old, moving a fake clock first. */
    protected final void waitForHeartbeatAge(String nodeId, Duration age) {
        advanceStoreClock(age);
        await().atMost(age.plus(BOUND))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> status(nodeId).heartbeatAge().compareTo(age) >= 0);
    }

    protected final NodeStatus status(String nodeId) {
        return registry.nodes().stream()
                .filter(n -> n.nodeId().equals(nodeId))
                .findFirst()
                .orElseThrow(() -> new AssertionError(nodeId + " is not registered"));
    }

    static NodeInfo node(String id, String incarnation, String host) {
        return new NodeInfo(id, incarnation, host, T0, Set.of("default", "reports"), 8);
    }
}
