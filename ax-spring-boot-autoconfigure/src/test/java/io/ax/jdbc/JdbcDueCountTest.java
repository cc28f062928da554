package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.store.DueCount;
import io.ax.test.jdbc.TestDatabase;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** The store's count of its due rows, which health, metrics and the console show: one cheap read of the due index. */
class JdbcDueCountTest {

    private static final String PREFIX = "axduecount_";

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void countsItsDueRowsUpToTheCapLeavingPausedTasksOut(TestDatabase database) {
        database.migrate(PREFIX);
        JdbcInstanceStore store = database.emptyStore(PREFIX);
        JdbcTemplate db = new JdbcTemplate(database.dataSource());
        Instant now = Instant.now();
        for (int i = 0; i < 5; i++) {
            db.update(
                    "INSERT INTO " + PREFIX + "instance (id, task_name, scheduled_us, state, attempt, node, updated_us,"
                            + " origin, dedupe_key) VALUES (?, 'job', ?, 'SCHEDULED', 0, 'n9', ?, 'DELAYED', ?)",
                    "01due000-0000-7000-8000-00000000000" + i,
                    (now.toEpochMilli() - 60_000 + i) * 1_000,
                    now.toEpochMilli() * 1_000,
                    "k" + i);
        }
        db.update(
                "INSERT INTO " + PREFIX + "instance (id, task_name, scheduled_us, state, attempt, node, updated_us,"
                        + " origin, dedupe_key) VALUES ('01due000-0000-7000-8000-000000000009', 'job', ?,"
                        + " 'SCHEDULED', 0, 'n9', ?, 'DELAYED', 'later')",
                (now.toEpochMilli() + 60_000) * 1_000,
                now.toEpochMilli() * 1_000);

        DueCount due = store.dueCount(now, 3);
        assertThat(due.count()).isEqualTo(3);
        assertThat(due.capped()).isTrue();
        assertThat(due.oldest()).isEqualTo(Instant.ofEpochMilli(now.toEpochMilli() - 60_000));
        assertThat(store.dueCount(now, 100)).isEqualTo(new DueCount(5, false, due.oldest()));

        db.update(
                "INSERT INTO " + PREFIX + "task (name, trigger_desc, paused, updated_us) VALUES ('job', 'x', TRUE, 0)");
        assertThat(store.dueCount(now, 100))
                .as("a paused task's rows wait for its resume")
                .isEqualTo(DueCount.NONE);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void findsTheOldestDueRowOfSomePartitionsLeavingPausedTasksOut(TestDatabase database) {
        database.migrate(PREFIX);
        JdbcInstanceStore store = database.emptyStore(PREFIX);
        JdbcTemplate db = new JdbcTemplate(database.dataSource());
        Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        // partition 3: a paused task's row due 90 s ago, a row due 30 s ago; partition 7: due 60 s ago; partition 3
        // again: one due in a minute
        Object[][] rows = {
            {"01lag000-0000-7000-8000-000000000001", "paused", -90_000, 3},
            {"01lag000-0000-7000-8000-000000000002", "job", -30_000, 3},
            {"01lag000-0000-7000-8000-000000000003", "job", -60_000, 7},
            {"01lag000-0000-7000-8000-000000000004", "job", 60_000, 3}
        };
        for (Object[] r : rows) {
            db.update(
                    "INSERT INTO " + PREFIX + "instance (id, task_name, scheduled_us, state, attempt, node, updated_us,"
                            + " origin, dedupe_key, partition_id) VALUES (?, ?, ?, 'SCHEDULED', 0, 'n9', ?, 'DELAYED',"
                            + " ?, ?)",
                    r[0],
                    r[1],
                    (now.toEpochMilli() + (int) r[2]) * 1_000,
                    now.toEpochMilli() * 1_000,
                    "k-" + r[0],
                    r[3]);
        }
        db.update("INSERT INTO " + PREFIX
                + "task (name, trigger_desc, paused, updated_us) VALUES ('paused', 'x', TRUE, 0)");

        assertThat(store.oldestDue(now, new int[] {3})).isEqualTo(now.minusSeconds(30));
        assertThat(store.oldestDue(now, new int[] {7, 3})).isEqualTo(now.minusSeconds(60));
        assertThat(store.oldestDue(now, new int[] {5})).as("nothing due there").isNull();
        assertThat(store.oldestDue(now, new int[0])).isNull();
        assertThat(store.oldestDue(now.minusSeconds(45), new int[] {3}))
                .as("due before the bound only")
                .isNull();
    }
}
