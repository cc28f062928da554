package io.ax.core.engine.terms;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.cluster.Partitions;
import io.ax.core.engine.writes.Fence;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A round's term: the fence of each row it decides, fixed when the round starts. */
class TermTest {

    @Test
    void aPartitionOwnersTermDecidesTheRowsOfItsPartitionsEachAtItsPartitionsEpoch() {
        int count = 16;
        String mine = "report";
        String other = otherThan(Partitions.of(mine, count), count);
        Map<Integer, Long> gained = new HashMap<>(Map.of(Partitions.of(mine, count), 3L));
        Term term = Term.partitions(gained, count);

        assertThat(term.fenceFor(mine)).isEqualTo(Fence.partition(3));
        assertThat(term.fenceFor(other)).isEqualTo(Fence.NONE);
        assertThat(term.decides(other)).isFalse();

        // fixed when the round starts: a later gain or loss is another round's
        gained.put(Partitions.of(other, count), 4L);
        gained.put(Partitions.of(mine, count), 9L);
        assertThat(term.decides(other)).isFalse();
        assertThat(term.fenceFor(mine)).isEqualTo(Fence.partition(3));
    }

    private static String otherThan(int partition, int count) {
        for (int i = 0; ; i++) {
            if (Partitions.of("task-" + i, count) != partition) {
                return "task-" + i;
            }
        }
    }
}
