package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.cluster.Partitions;
import io.ax.core.store.NewFire;
import io.ax.test.jdbc.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A store that writes instances without being a node (an application's writer, a tool) reads the cluster's partition
 * count from the table before its first write, so that its rows are in their partition's reads at once: the owners of
 * partitioned ownership read nothing else. While no node has recorded a count, its rows have none (a node fills them
 * in later).
 */
class WriterLearnsPartitionCountTest {

    private static final String PREFIX = "axcnt_";
    private static final int COUNT = 16;
    private static final Instant DUE = Instant.parse("2030-01-01T00:00:00Z");

    private final TestDatabase database = TestDatabase.H2;

    @BeforeEach
    void emptyTables() {
        database.migrate(PREFIX);
        database.emptyStore(PREFIX);
    }

    private static TaskInstance delayed() {
        return new TaskInstance(
                UUID.randomUUID().toString(),
                "mail",
                DUE,
                InstanceState.SCHEDULED,
                0,
                "tool",
                DUE,
                InstanceOrigin.DELAYED,
                null);
    }

    private static int[] partitionOf(TaskInstance instance) {
        return new int[] {Partitions.of(instance, COUNT)};
    }

    @Test
    void aWriterThatIsNoNodeWritesItsRowsIntoTheirPartitionsOnceANodeRecordedTheCount() {
        JdbcInstanceStore node = new JdbcInstanceStore(database.dataSource(), PREFIX);
        node.partitionLeases().orElseThrow().partitions(COUNT);
        JdbcInstanceStore writer = new JdbcInstanceStore(database.dataSource(), PREFIX);

        TaskInstance scheduled = delayed();
        writer.schedule(List.of(new NewFire(scheduled, "written by a tool")));

        assertThat(writer.partitionCount()).isEqualTo(COUNT);
        assertThat(node.findScheduled(DUE.plusSeconds(1), null, null, 10, partitionOf(scheduled)))
                .as("the owner of its partition reads it")
                .containsExactly(scheduled);
    }

    @Test
    void beforeAnyNodeRecordedACountARowHasNoneUntilANodeFillsItIn() {
        JdbcInstanceStore writer = new JdbcInstanceStore(database.dataSource(), PREFIX);
        TaskInstance early = delayed();
        writer.schedule(List.of(new NewFire(early, "written before any node started")));
        JdbcInstanceStore node = new JdbcInstanceStore(database.dataSource(), PREFIX);
        node.partitionLeases().orElseThrow().partitions(COUNT);

        assertThat(writer.partitionCount()).isZero();
        assertThat(node.findScheduled(DUE.plusSeconds(1), null, null, 10, partitionOf(early)))
                .isEmpty();
        assertThat(node.fillPartitions(COUNT, 10)).isEqualTo(1);
        assertThat(node.findScheduled(DUE.plusSeconds(1), null, null, 10, partitionOf(early)))
                .containsExactly(early);
    }
}
