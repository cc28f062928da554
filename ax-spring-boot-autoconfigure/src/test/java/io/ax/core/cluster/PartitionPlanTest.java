package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PartitionPlanTest {

    private static final int PARTITIONS = 256;
    private static final int POINTS = 32;

    @Test
    void everyPartitionGetsOneTargetAndTheLoadsDifferByAtMostOne() {
        for (int n = 1; n <= 7; n++) {
            List<String> nodes = nodes(n);
            String[] plan = PartitionPlan.target(PARTITIONS, nodes, p -> null, POINTS);
            assertThat(plan).doesNotContainNull().allMatch(nodes::contains);
            Map<String, Integer> loads = PartitionPlan.loads(plan);
            assertThat(loads.keySet()).as(n + " nodes").containsExactlyInAnyOrderElementsOf(nodes);
            assertThat(Collections.max(loads.values()) - Collections.min(loads.values()))
                    .as("spread of the loads on " + n + " nodes: " + loads)
                    .isLessThanOrEqualTo(1);
        }
    }

    @Test
    void theSameInputsGiveTheSamePlanWhateverTheirOrder() {
        List<String> nodes = nodes(5);
        String[] current = PartitionPlan.target(PARTITIONS, nodes(3), p -> null, POINTS);
        String[] first = PartitionPlan.target(PARTITIONS, nodes, p -> current[p], POINTS);
        List<String> shuffled = new ArrayList<>(nodes);
        Collections.shuffle(shuffled, new Random(7));
        assertThat(PartitionPlan.target(PARTITIONS, shuffled, p -> current[p], POINTS))
                .containsExactly(first);
    }

    @Test
    void aNodeThatJoinsTakesItsShareFromTheOthersAndNothingMovesBetweenThem() {
        String[] three = PartitionPlan.target(PARTITIONS, nodes(3), p -> null, POINTS);
        String[] four = PartitionPlan.target(PARTITIONS, nodes(4), p -> three[p], POINTS);
        int moved = PartitionPlan.moves(four, p -> three[p]);
        assertThat(moved).as("a quarter of 256").isEqualTo(PARTITIONS / 4);
        for (int p = 0; p < PARTITIONS; p++) {
            if (!four[p].equals(three[p])) {
                assertThat(four[p])
                        .as("partition " + p + " moved to the new node only")
                        .isEqualTo("node-4");
            }
        }
    }

    @Test
    void aNodeThatIsGoneGivesUpOnlyItsOwnPartitions() {
        String[] four = PartitionPlan.target(PARTITIONS, nodes(4), p -> null, POINTS);
        List<String> rest = List.of("node-1", "node-2", "node-4");
        String[] three = PartitionPlan.target(PARTITIONS, rest, p -> four[p], POINTS);
        long owned = Arrays.stream(four).filter("node-3"::equals).count();
        assertThat(PartitionPlan.moves(three, p -> four[p])).isEqualTo((int) owned);
        for (int p = 0; p < PARTITIONS; p++) {
            if (!"node-3".equals(four[p])) {
                assertThat(three[p]).as("partition " + p).isEqualTo(four[p]);
            }
        }
        assertThat(PartitionPlan.loads(three).values()).allMatch(l -> l == 85 || l == 86);
    }

    @Test
    void aPlanReachedIsKeptAsItIs() {
        String[] plan = PartitionPlan.target(PARTITIONS, nodes(3), p -> null, POINTS);
        assertThat(PartitionPlan.target(PARTITIONS, nodes(3), p -> plan[p], POINTS))
                .containsExactly(plan);
    }

    @Test
    void partitionsOwnedByNodesOutsideThePlanAndFreeOnesAreSpreadToo() {
        String[] owners = new String[PARTITIONS];
        Arrays.fill(owners, 0, 100, "gone");
        String[] plan = PartitionPlan.target(PARTITIONS, nodes(2), p -> owners[p], POINTS);
        assertThat(plan).doesNotContain("gone");
        assertThat(PartitionPlan.loads(plan)).containsOnly(Map.entry("node-1", 128), Map.entry("node-2", 128));
    }

    @Test
    void noNodesNoTargets() {
        assertThat(PartitionPlan.target(4, List.of(), p -> "node-1", POINTS)).containsOnlyNulls();
        assertThatThrownBy(() -> PartitionPlan.target(0, nodes(1), p -> null, POINTS))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> nodes(int n) {
        List<String> nodes = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            nodes.add("node-" + i);
        }
        return nodes;
    }
}
