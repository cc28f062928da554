package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A transactional job's node killed with SIGKILL while its attempts hold their transactions open: after another
 * node took the work over, the job's ledger holds exactly one row per SUCCESS instance, written by its last attempt,
 * and none for any other, read from PostgreSQL against AX's own tables.
 */
class TransactionalCrashTest {

    private static final String PREFIX = "axtxcrash_";
    private static final String LEDGER = "axtxcrash_ledger";
    private static final Duration BOUND = Duration.ofSeconds(90);
    private static final Set<String> FINAL = Set.of("SUCCESS", "DEAD", "CANCELLED", "SKIPPED");

    private final ChildJvms nodes = new ChildJvms();

    @AfterEach
    void killLeftovers() {
        nodes.close();
    }

    @Test
    void aNodeKilledMidTransactionLeavesOneLedgerRowPerSuccessAndNoneBehind() throws Exception {
        TestDatabase pg = TestDatabase.POSTGRESQL;
        DataSource dataSource = pg.dataSource();
        pg.dropTables(PREFIX);
        JdbcTemplate db = new JdbcTemplate(dataSource);
        db.execute("DROP TABLE IF EXISTS " + LEDGER);

        Process first = start(pg, "first");
        // a booking holds its transaction 400 ms after its insert: wait until one is inside it
        await().atMost(BOUND)
                .until(() -> count(db, "task_name = 'book' AND state = 'SUCCESS'") >= 5
                        && count(db, "task_name = 'book' AND state = 'RUNNING'") >= 1);
        ChildJvms.kill(first);
        List<String> inFlight = db.queryForList(
                "SELECT id FROM " + PREFIX + "instance WHERE task_name = 'book' AND state = 'RUNNING'", String.class);
        assertThat(inFlight).as("bookings running at the kill").isNotEmpty();

        Process second = start(pg, "second");
        await().atMost(BOUND).until(() -> inFlight.stream().allMatch(id -> FINAL.contains(state(db, id))));
        ChildJvms.kill(second);

        List<Map<String, Object>> instances =
                db.queryForList("SELECT id, state, attempt FROM " + PREFIX + "instance WHERE task_name = 'book'");
        for (Map<String, Object> i : instances) {
            String id = (String) i.get("id");
            List<Integer> rows =
                    db.queryForList("SELECT attempt FROM " + LEDGER + " WHERE instance_id = ?", Integer.class, id);
            if ("SUCCESS".equals(i.get("state"))) {
                assertThat(rows)
                        .as("the ledger rows of SUCCESS instance %s: one, by its last attempt", id)
                        .containsExactly(((Number) i.get("attempt")).intValue());
            } else {
                assertThat(rows)
                        .as("the ledger rows of %s instance %s", i.get("state"), id)
                        .isEmpty();
            }
        }
        for (String id : inFlight) {
            assertThat(state(db, id))
                    .as("a booking killed mid-transaction, retried")
                    .isEqualTo("SUCCESS");
            assertThat(db.queryForObject("SELECT attempt FROM " + PREFIX + "instance WHERE id = ?", Integer.class, id))
                    .as("its attempt: the killed one counts")
                    .isGreaterThanOrEqualTo(2);
        }
        assertThat(db.queryForObject(
                        "SELECT COUNT(*) FROM " + LEDGER + " l WHERE NOT EXISTS (SELECT 1 FROM " + PREFIX
                                + "instance i WHERE i.id = l.instance_id)",
                        Integer.class))
                .as("ledger rows of no instance")
                .isZero();
        AuditTrails.assertEveryTrailIsALegalPath(db, PREFIX);
    }

    private Process start(TestDatabase pg, String name) throws Exception {
        return nodes.start(
                "txcrash-" + name,
                "256m",
                SampleApplication.class,
                ChildJvms.onPostgres(
                        pg,
                        PREFIX,
                        "txcrash-" + name,
                        "--sample.ledger.enabled=true",
                        "--sample.ledger.table=" + LEDGER,
                        "--sample.ledger.rate=200ms",
                        "--sample.ledger.hold=400ms",
                        "--ax.misfire.threshold=1s"));
    }

    private static int count(JdbcTemplate db, String condition) {
        return ChildJvms.count(db, PREFIX, condition);
    }

    private static String state(JdbcTemplate db, String id) {
        return ChildJvms.state(db, PREFIX, id);
    }
}
