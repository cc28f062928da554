package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /**
     * Computed apart from the code (FNV-1a 64 over the UTF-8 bytes, fmix64, floorMod of the signed value), for counts
     * 1, 2, 7, 256 and 4096. The stores keep these values: a change of the function would strand their rows.
     */
    @Test
    void partitionsArePinnedSoThatEveryNodeOfEveryVersionAgrees() {
        assertPinned("report", 0, 0, 3, 244, 3316);
        assertPinned("nightly-billing", 0, 0, 4, 148, 404);
        assertPinned("0197a3c2-7f1e-7c41-9d2b-3e8a5f6b1c20", 0, 0, 4, 94, 2654);
        assertPinned("order-42", 0, 0, 1, 134, 902);
        assertPinned("", 0, 0, 6, 38, 2342);
        assertPinned("é€中😀", 0, 0, 6, 38, 3366);
    }

    @Test
    void aNegativeHashStillGivesAPartitionInRange() {
        assertThat(HashRing.hash("report"))
                .as("the hash is negative as a signed long")
                .isNegative();
        assertThat(Partitions.of("report", 7)).isEqualTo(3);
    }

    @Test
    void aHundredThousandTaskNamesSpreadEvenlyOver256Partitions() {
        int count = 256;
        int keys = 100_000;
        int[] rows = new int[count];
        for (int n = 0; n < keys; n++) {
            rows[Partitions.of("task-" + n, count)]++;
        }
        double expected = (double) keys / count;
        double chiSquare = 0;
        for (int r : rows) {
            assertThat((double) r).as("rows of one partition").isBetween(expected * 0.8, expected * 1.2);
            chiSquare += (r - expected) * (r - expected) / expected;
        }
        // 255 degrees of freedom: a uniform hash gives 255 ± 23; above 330 happens once in a thousand
        assertThat(chiSquare).isLessThan(330);
    }

    @Test
    void triggerFiresAndOnDemandRunsAreInTheirTasksPartition() {
        int task = Partitions.of("billing", 256);
        assertThat(Partitions.of(instance(InstanceOrigin.SERIES, "billing", TaskInstance.fireKey(T0)), 256))
                .isEqualTo(task);
        assertThat(Partitions.of(instance(InstanceOrigin.CATCH_UP, "billing", TaskInstance.fireKey(T0)), 256))
                .isEqualTo(task);
        assertThat(Partitions.of(instance(InstanceOrigin.ON_DEMAND, "billing", null), 256))
                .isEqualTo(task);
    }

    @Test
    void aWorkflowStepIsInItsRunsPartitionItsBlockedRecordToo() {
        int run = Partitions.of("run-1", 256);
        assertThat(run).isEqualTo(42);
        assertThat(Partitions.of(instance(InstanceOrigin.WORKFLOW, "ship", TaskInstance.runKey("run-1")), 256))
                .isEqualTo(run);
        assertThat(Partitions.of(instance(InstanceOrigin.WORKFLOW, "invoice", TaskInstance.blockedKey("run-1")), 256))
                .isEqualTo(run);
    }

    @Test
    void aDelayedExecutionIsInItsKeysPartitionOrItsIdsWithoutOne() {
        TaskInstance keyed = instance(InstanceOrigin.DELAYED, "mail", "invoice-2026-001");
        assertThat(Partitions.of(keyed, 16)).isEqualTo(Partitions.of("invoice-2026-001", 16));
        assertThat(Partitions.of(keyed, 16)).isEqualTo(2);

        TaskInstance unkeyed = instance(InstanceOrigin.DELAYED, "mail", null);
        assertThat(Partitions.of(unkeyed, 256)).isEqualTo(Partitions.of(unkeyed.id(), 256));
        assertThat(Partitions.of(unkeyed, 256)).isEqualTo(36);
    }

    @Test
    void everyOriginHasARule() {
        for (InstanceOrigin origin : InstanceOrigin.values()) {
            String key = origin == InstanceOrigin.WORKFLOW ? TaskInstance.runKey("r") : null;
            assertThat(Partitions.of(instance(origin, "t", key), 256)).isBetween(0, 255);
        }
    }

    @Test
    void aReplayKeepsThePartition() {
        TaskInstance dead = instance(InstanceOrigin.DELAYED, "mail", null).with(InstanceState.DEAD, 3, "n2", T0);
        TaskInstance replayed = dead.with(InstanceState.RETRYING, 3, "n3", T0.plusSeconds(60));
        assertThat(Partitions.of(replayed, 256)).isEqualTo(Partitions.of(dead, 256));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, PartitionLeases.MAX_PARTITIONS + 1})
    void aCountOutOfRangeIsRefusedNamingIt(int count) {
        assertThatThrownBy(() -> Partitions.of("report", count))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a partition count must be between 1 and 4096, was " + count);
    }

    @Test
    void theLargestCountIsAllowed() {
        assertThat(Partitions.of("report", PartitionLeases.MAX_PARTITIONS)).isEqualTo(3316);
    }

    private static void assertPinned(String key, int... byCount) {
        int[] counts = {1, 2, 7, 256, 4096};
        for (int i = 0; i < counts.length; i++) {
            assertThat(Partitions.of(key, counts[i]))
                    .as("partition of '%s' among %d", key, counts[i])
                    .isEqualTo(byCount[i]);
        }
    }

    /** An instance whose id is fixed, so that the pinned values of unkeyed instances hold. */
    private static TaskInstance instance(InstanceOrigin origin, String task, String key) {
        return new TaskInstance(
                "0197a3c2-0000-7000-8000-000000000001", task, T0, InstanceState.SCHEDULED, 0, "n1", T0, origin, key);
    }
}
