package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Starts the sample application as a separate JVM on PostgreSQL, kills it with SIGKILL while work is in flight,
 * starts it again and proves from the database that nothing was lost, duplicated or moved illegally.
 */
class CrashRecoveryTest {

    private static final String PREFIX = "axcrash_";
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final Set<String> FINAL = Set.of("SUCCESS", "DEAD", "CANCELLED", "SKIPPED");

    private final ChildJvms nodes = new ChildJvms();

    @AfterEach
    void killLeftovers() {
        nodes.close();
    }

    @Test
    void aKilledNodeLosesAndDuplicatesNothing() throws Exception {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        DataSource dataSource = pg.dataSource();
        pg.dropTables(PREFIX);
        JdbcTemplate db = new JdbcTemplate(dataSource);

        Process first = start(pg, "first");
        // let it write and run work, until something is running right now (the slow job runs for its full timeout)
        await().atMost(BOUND).until(() -> count(db, "state = 'SUCCESS'") >= 10 && count(db, "state = 'RUNNING'") >= 1);
        ChildJvms.kill(first);
        List<String> unfinished = db.queryForList(
                "SELECT id FROM " + PREFIX + "instance WHERE state NOT IN ('SUCCESS','DEAD','CANCELLED','SKIPPED')",
                String.class);
        assertThat(unfinished).as("work in flight at the kill").isNotEmpty();

        Process second = start(pg, "second");
        await().atMost(BOUND).until(() -> unfinished.stream().allMatch(id -> FINAL.contains(state(db, id))));
        ChildJvms.kill(second);

        assertThat(db.queryForList(
                        "SELECT task_name FROM " + PREFIX
                                + "instance GROUP BY task_name, scheduled_us HAVING COUNT(*) > 1",
                        String.class))
                .as("instances with the same task and scheduled time")
                .isEmpty();
        AuditTrails.assertEveryTrailIsALegalPath(db, PREFIX);
    }

    private Process start(TestDatabase pg, String name) throws Exception {
        return nodes.start(
                "crash-" + name,
                "256m",
                SampleApplication.class,
                ChildJvms.onPostgres(
                        pg,
                        PREFIX,
                        "crash-" + name,
                        "--sample.tick.rate=100ms",
                        "--sample.flaky.delay=300ms",
                        "--sample.doomed.delay=500ms",
                        "--sample.slow.delay=200ms",
                        "--sample.retry.base=200ms",
                        "--ax.misfire.threshold=1s"));
    }

    private static int count(JdbcTemplate db, String condition) {
        return ChildJvms.count(db, PREFIX, condition);
    }

    private static String state(JdbcTemplate db, String id) {
        return ChildJvms.state(db, PREFIX, id);
    }
}
