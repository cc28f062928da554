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
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** Tables created by an older AX keep their rows, and their rows' guarantees, when the schema is brought up to date. */
class JdbcSchemaUpgradeTest {

    private static final String PREFIX = "axu_";
    private static final Instant T1 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant T2 = T1.plusSeconds(60);

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void instancesWrittenBeforeDelayedTasksKeepTheirFireKeysAndGetTheirOrigin(TestDatabase database) {
        DataSource dataSource = database.dataSource();
        database.dropTables(PREFIX);
        try {
            JdbcSchema.migrate(dataSource, PREFIX, "1");
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            jdbc.update("INSERT INTO " + PREFIX + "task (name, trigger_desc, next_fire_us, paused, updated_us)"
                    + " VALUES ('report', 'every minute', " + us(T2) + ", FALSE, 0)");
            String done = v1Instance(jdbc, "report", T1, "SUCCESS");
            String pending = v1Instance(jdbc, "report", T2, "SCHEDULED");
            String triggered = v1Instance(jdbc, "adhoc", T2, "SCHEDULED");

            assertThat(JdbcSchema.migrate(dataSource, PREFIX)).as("V2 to V15").isEqualTo(14);

            JdbcInstanceStore store = new JdbcInstanceStore(dataSource, PREFIX);
            assertThat(store.find(pending).orElseThrow())
                    .extracting(TaskInstance::origin, TaskInstance::key)
                    .containsExactly(InstanceOrigin.SERIES, TaskInstance.fireKey(T2));
            assertThat(store.find(done).orElseThrow())
                    .extracting(TaskInstance::origin, TaskInstance::key)
                    .containsExactly(InstanceOrigin.ON_DEMAND, TaskInstance.fireKey(T1));
            assertThat(store.find(triggered).orElseThrow())
                    .extracting(TaskInstance::origin, TaskInstance::key)
                    .containsExactly(InstanceOrigin.ON_DEMAND, TaskInstance.fireKey(T2));
            assertThat(store.payload(pending)).isEmpty();
            assertThat(store.findScheduled(T2.plusSeconds(1), null, null, 10))
                    .extracting(TaskInstance::id)
                    .containsExactlyInAnyOrder(pending, triggered);

            // a fire decided before the upgrade is still decided: the same fire time is not written twice
            TaskInstance again =
                    new TaskInstance(UUID.randomUUID().toString(), "report", T2, InstanceState.SCHEDULED, 0, "n", T2);
            assertThat(store.schedule(List.of(new NewFire(again, "")))).containsExactly(false);
            TaskInstance unkeyed = new TaskInstance(
                    UUID.randomUUID().toString(),
                    "report",
                    T2,
                    InstanceState.SCHEDULED,
                    0,
                    "n",
                    T2,
                    InstanceOrigin.DELAYED,
                    null);
            assertThat(store.schedule(List.of(new NewFire(unkeyed, "")))).containsExactly(true);
        } finally {
            database.dropTables(PREFIX);
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void instancesWrittenBeforePartitionsStayReadableWithoutOneUntilFilled(TestDatabase database) {
        DataSource dataSource = database.dataSource();
        database.dropTables(PREFIX);
        try {
            JdbcSchema.migrate(dataSource, PREFIX, "9");
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            String due = v9Instance(jdbc, "report", T1, "SCHEDULED", "SERIES", TaskInstance.fireKey(T1));
            String keyed = v9Instance(jdbc, "mail", T1.plusSeconds(1), "SCHEDULED", "DELAYED", "invoice-42");
            String running = v9Instance(jdbc, "ship", T1.plusSeconds(2), "RUNNING", "WORKFLOW", "@run:run-7");
            String done = v9Instance(jdbc, "report", T1.minusSeconds(60), "SUCCESS", "SERIES", "@0");

            assertThat(JdbcSchema.migrate(dataSource, PREFIX)).as("V10 to V15").isEqualTo(6);

            JdbcInstanceStore store = new JdbcInstanceStore(dataSource, PREFIX);
            assertThat(partitionIds(jdbc))
                    .as("every old row without a partition")
                    .containsOnlyNulls();
            assertThat(store.findScheduled(T2, null, null, 10))
                    .extracting(TaskInstance::id)
                    .containsExactly(due, keyed);
            int count = store.partitionLeases().orElseThrow().partitions(16);
            int[] all = java.util.stream.IntStream.range(0, count).toArray();
            assertThat(store.findScheduled(T2, null, null, 10, all))
                    .as("in no partition until filled")
                    .isEmpty();

            TaskInstance fresh = new TaskInstance(
                    UUID.randomUUID().toString(),
                    "mail",
                    T1.plusMillis(500),
                    InstanceState.SCHEDULED,
                    0,
                    "n",
                    T1,
                    InstanceOrigin.DELAYED,
                    "fresh");
            store.schedule(List.of(new NewFire(fresh, "")));
            assertThat(partitionId(jdbc, fresh.id())).isEqualTo(Partitions.of("fresh", count));

            assertThat(store.fillPartitions(count, 2)).isEqualTo(2);
            assertThat(store.fillPartitions(count, 2)).isEqualTo(1);
            assertThat(store.fillPartitions(count, 2)).isZero();
            assertThat(partitionId(jdbc, due)).isEqualTo(Partitions.of("report", count));
            assertThat(partitionId(jdbc, keyed)).isEqualTo(Partitions.of("invoice-42", count));
            assertThat(partitionId(jdbc, running)).isEqualTo(Partitions.of("run-7", count));
            assertThat(partitionId(jdbc, done))
                    .as("finished for good: never read by partition")
                    .isNull();
            assertThat(store.findScheduled(T2, null, null, 10, all))
                    .extracting(TaskInstance::id)
                    .containsExactly(due, fresh.id(), keyed);
        } finally {
            database.dropTables(PREFIX);
        }
    }

    /** A row as AX wrote it before V10: every column but the partition. */
    private static String v9Instance(
            JdbcTemplate jdbc, String task, Instant at, String state, String origin, String key) {
        String id = UUID.randomUUID().toString();
        jdbc.update(
                "INSERT INTO " + PREFIX + "instance (id, task_name, scheduled_us, state, attempt, node, updated_us,"
                        + " origin, dedupe_key) VALUES (?, ?, ?, ?, 0, 'old', 0, ?, ?)",
                id,
                task,
                us(at),
                state,
                origin,
                key);
        return id;
    }

    private static List<Integer> partitionIds(JdbcTemplate jdbc) {
        return jdbc.query("SELECT partition_id FROM " + PREFIX + "instance", (rs, n) -> (Integer) rs.getObject(1));
    }

    private static Integer partitionId(JdbcTemplate jdbc, String id) {
        return jdbc.queryForObject(
                "SELECT partition_id FROM " + PREFIX + "instance WHERE id = ?",
                (rs, n) -> rs.getObject(1) == null ? null : rs.getInt(1),
                id);
    }

    private static String v1Instance(JdbcTemplate jdbc, String task, Instant at, String state) {
        String id = UUID.randomUUID().toString();
        jdbc.update(
                "INSERT INTO " + PREFIX + "instance (id, task_name, scheduled_us, state, attempt, node, updated_us)"
                        + " VALUES (?, ?, ?, ?, 0, 'old', 0)",
                id,
                task,
                us(at),
                state);
        return id;
    }

    private static long us(Instant t) {
        return JdbcInstanceStore.micros(t);
    }
}
