package io.ax.core.engine.terms;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.LocalLeaderLease;
import io.ax.core.cluster.LocalNodeRegistry;
import io.ax.core.cluster.LocalPartitionLeases;
import io.ax.core.cluster.Membership;
import io.ax.core.cluster.Memberships;
import io.ax.core.cluster.PartitionTerms;
import io.ax.core.cluster.Partitions;
import io.ax.core.engine.writes.Fence;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one answer to "at which epoch may this node decide for this row, and how is that decision fenced": the
 * leader's epoch and fence for every row, or the row's partition's, from a node's real partition ownership (one
 * node alone on the in-memory registry owns all 64 partitions when its start returns).
 */
class DecisionTermsTest {

    private static final ClusterSettings FAST = new ClusterSettings(
                    Duration.ofMillis(100), Duration.ofMillis(600), Duration.ofMillis(300), Duration.ofMillis(100), 32)
            .withPartitions(64);

    private final AxClock clock = AxClock.system();
    private final List<FencedOutException> leaderRefusals = new ArrayList<>();
    private Membership node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private PartitionTerms startAlone() {
        LocalNodeRegistry registry = new LocalNodeRegistry(clock);
        node = Memberships.of(
                "n1",
                "localhost",
                registry,
                new LocalLeaderLease(clock),
                clock,
                FAST,
                new LocalPartitionLeases(clock, registry));
        node.start();
        return node.partitions().orElseThrow();
    }

    private static Transition assignment(String id) {
        return new Transition(
                id,
                InstanceState.SCHEDULED,
                InstanceState.DISPATCHED,
                1,
                "n1",
                Instant.EPOCH,
                "assigned",
                Instant.EPOCH);
    }

    @Test
    void underPartitionsARowIsDecidedAtItsPartitionsEpochAndCarriesThatPartitionsFence() {
        PartitionTerms owned = startAlone();
        DecisionTerms terms = DecisionTerms.partitioned(() -> owned, leaderRefusals::add);
        int partition = Partitions.of("report", 64);
        long epoch = owned.epoch(partition);
        assertThat(epoch).isPositive();

        assertThat(terms.epochFor("report")).isEqualTo(epoch);
        assertThat(terms.fence(epoch))
                .as("no leader fence: the partition's row orders the owners")
                .isEqualTo(Fence.partition(epoch));
        assertThat(terms.now().fenceFor("report")).isEqualTo(Fence.partition(epoch));
        assertThat(DecisionTerms.epochOf(terms.fence(epoch).assignedTo(assignment("i-1"), "n1")))
                .isEqualTo(epoch);
        // a decision no fence guards (a MEMORY instance) carries none
        assertThat(terms.fence(0)).isEqualTo(Fence.NONE);
    }

    @Test
    void aRefusedPartitionWriteStopsTheDecisionsForThatPartitionAtOnceAndNoOther() {
        PartitionTerms owned = startAlone();
        DecisionTerms terms = DecisionTerms.partitioned(() -> owned, leaderRefusals::add);
        int partition = Partitions.of("report", 64);
        long epoch = owned.epoch(partition);
        String other = otherPartitionKey(partition);

        // a refusal of an older epoch (a write queued before the node took the partition again) ends nothing
        terms.fencedOut(new FencedOutException(partition, epoch - 1));
        assertThat(terms.epochFor("report")).isEqualTo(epoch);

        terms.fencedOut(new FencedOutException(partition, epoch));
        assertThat(terms.epochFor("report")).isZero();
        assertThat(terms.epochFor(other)).isPositive();
        assertThat(leaderRefusals).isEmpty();

        // a row with no partition yet ends no term; a leader-fenced write (the takeover's) goes to the leader
        terms.fencedOut(new FencedOutException(FencedOutException.NO_PARTITION, 3));
        assertThat(terms.epochFor(other)).isPositive();
        FencedOutException leader = new FencedOutException(3);
        terms.fencedOut(leader);
        assertThat(leaderRefusals).containsExactly(leader);
    }

    @Test
    void beforeANodeTakesPartInTheOwnershipItDecidesNothing() {
        DecisionTerms terms = DecisionTerms.partitioned(() -> null, leaderRefusals::add);

        assertThat(terms.epochFor("report")).isZero();
        terms.fencedOut(new FencedOutException(3, 1)); // nothing to drop, nothing thrown
    }

    private static String otherPartitionKey(int taken) {
        for (int i = 0; ; i++) {
            if (Partitions.of("task-" + i, 64) != taken) {
                return "task-" + i;
            }
        }
    }
}
