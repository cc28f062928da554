package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SettledNodesTest {

    private static final Duration HEARTBEAT = Duration.ofSeconds(1);
    private static final Duration LEASE = Duration.ofSeconds(5);
    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final Duration FRESH = Duration.ofSeconds(2);
    private static final int PARTITIONS = 256;

    private final SettledNodes settled = new SettledNodes(LEASE, FRESH, SETTLE);
    private long now;

    @Test
    void nodesStartingTogetherCountAtOnceAndALaterOneAfterTheSettleTime() {
        assertThat(look(alive("a"), alive("b"))).containsExactlyInAnyOrder("a", "b");
        assertThat(look(alive("a"), alive("b"), alive("c"))).as("c just joined").containsExactlyInAnyOrder("a", "b");
        tick(SETTLE.minus(HEARTBEAT));
        assertThat(look(alive("a"), alive("b"), alive("c"))).containsExactlyInAnyOrder("a", "b");
        tick(HEARTBEAT);
        assertThat(look(alive("a"), alive("b"), alive("c"))).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void aNodeSeenDeadOrStoppingStopsCountingAtOnceAndSettlesAgainFromScratch() {
        look(alive("a"), alive("b"));
        assertThat(look(alive("a"), dead("b"))).containsExactly("a");
        assertThat(look(alive("a"), alive("b"))).as("b back, not settled yet").containsExactly("a");
        tick(SETTLE);
        assertThat(look(alive("a"), alive("b"))).containsExactlyInAnyOrder("a", "b");
        assertThat(look(alive("a"), leaving("b"))).containsExactly("a");
    }

    @Test
    void aRestartedProcessOfANodeSettlesAgain() {
        look(alive("a"), alive("b"));
        tick(SETTLE);
        look(alive("a"), alive("b"));
        assertThat(look(alive("a"), status("b", "inc-2", Duration.ZERO, 1))).containsExactly("a");
    }

    @Test
    void aFlappingNodeMovesItsPartitionsOnceAndThePlanStaysPut() {
        // a, b and c own the partitions; then c's connection flaps: alive one heartbeat, stale the next
        look(alive("a"), alive("b"), alive("c"));
        String[] plan = plan(null);
        long cOwned = PartitionPlan.loads(plan).get("c");
        int moves = 0;
        List<Set<String>> views = new ArrayList<>();
        for (int beat = 0; beat < 40; beat++) {
            tick(HEARTBEAT);
            NodeStatus c = beat % 2 == 0 ? dead("c") : alive("c");
            Set<String> view = look(alive("a"), alive("b"), c);
            views.add(view);
            String[] next = plan(plan);
            String[] before = plan;
            moves += PartitionPlan.moves(next, p -> before[p]);
            plan = next;
        }
        assertThat(views).allSatisfy(v -> assertThat(v).containsExactlyInAnyOrder("a", "b"));
        assertThat(moves).as("c's partitions, moved once").isEqualTo((int) cOwned);
        // once it stays up for the settle time, it gets its share again
        for (int beat = 0; beat <= SETTLE.dividedBy(HEARTBEAT); beat++) {
            tick(HEARTBEAT);
            look(alive("a"), alive("b"), alive("c"));
        }
        assertThat(PartitionPlan.loads(plan(plan)).get("c")).isBetween(85, 86);
    }

    private String[] plan(String[] current) {
        return PartitionPlan.target(PARTITIONS, settled.settled(), p -> current == null ? null : current[p], 32);
    }

    private Set<String> look(NodeStatus... nodes) {
        return settled.look(List.of(nodes), now);
    }

    private void tick(Duration d) {
        now += d.toNanos();
    }

    private static NodeStatus alive(String id) {
        return status(id, "inc-1", HEARTBEAT, 1);
    }

    private static NodeStatus dead(String id) {
        return status(id, "inc-1", LEASE.plusMillis(1), 1);
    }

    private static NodeStatus leaving(String id) {
        return status(id, "inc-1", Duration.ZERO, NodeStatus.LEAVING);
    }

    private static NodeStatus status(String id, String incarnation, Duration age, int capacity) {
        return new NodeStatus(id, incarnation, "host", Instant.EPOCH, Instant.EPOCH, age, Set.of("default"), capacity);
    }
}
