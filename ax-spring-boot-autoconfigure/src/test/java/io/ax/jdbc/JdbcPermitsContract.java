package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceState;
import io.ax.core.store.Permits.Held;
import io.ax.core.store.Permits.Limit;
import io.ax.core.store.Permits.Outcome;
import io.ax.core.store.Permits.Result;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.store.PermitsContract;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

/** The permits contract on a database's {@code permit} table (prefix {@code axp_}); one subclass per database. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcPermitsContract extends PermitsContract<JdbcInstanceStore> {

    static final String PREFIX = "axp_";
    private static final Limit MUTEX = new Limit("mutex:ledger", 1);

    abstract TestDatabase database();

    @BeforeAll
    void createSchema() {
        database().migrate(PREFIX);
    }

    @Override
    protected JdbcInstanceStore newStore() {
        return database().emptyStore(PREFIX);
    }

    /** The database's clock cannot be moved: the rate rows' times move back instead, which is the same to them. */
    @Override
    protected void timePasses(Duration time) {
        long us = TimeUnit.MICROSECONDS.convert(time);
        jdbc().update(
                        "UPDATE " + PREFIX + "permit SET acquired_us = acquired_us - ?, until_us = until_us - ?"
                                + " WHERE until_us IS NOT NULL",
                        us,
                        us);
    }

    /**
     * A wait's note reads the instance's state, and a cancel on another node may be changing it at that moment: the
     * note waits for that write and finds the instance CANCELLED, rather than read the state before it and leave a
     * trail whose last step does not start where the cancel ended.
     */
    @Test
    void aWaitIsNotNotedOnAnInstanceThatAWriteInFlightCancels() throws Exception {
        String a = due();
        ExecutorService noter = Executors.newSingleThreadExecutor();
        try (Connection cancel = database().dataSource().getConnection()) {
            cancel.setAutoCommit(false);
            try (PreparedStatement update = cancel.prepareStatement(
                    "UPDATE " + PREFIX + "instance SET state = 'CANCELLED' WHERE id = ? AND state = 'SCHEDULED'")) {
                update.setString(1, a);
                assertThat(update.executeUpdate()).isOne();
            }
            Future<?> note = noter.submit(
                    () -> permits.noteWait(claim(a), "waits for a permit of " + MUTEX.key() + " (1 of 1 held)"));
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> note.isDone() || lockWaits() > 0);
            cancel.commit();
            note.get(10, TimeUnit.SECONDS);
        } finally {
            noter.shutdownNow();
        }
        assertThat(store.auditTrail(a))
                .as("no note after the cancel")
                .extracting(AuditEntry::to)
                .containsExactly(InstanceState.CREATED, InstanceState.SCHEDULED);
    }

    /** Statements of this database that wait for a lock another transaction holds. */
    private int lockWaits() {
        String sql = switch (database()) {
            case POSTGRESQL ->
                "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        + " AND datname = current_database()";
            case MARIADB -> "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'";
            case H2 -> "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL";
        };
        Integer n = jdbc().queryForObject(sql, Integer.class);
        return n == null ? 0 : n;
    }

    @Test
    void aRatePermitIsFreeOnceTheDatabasesClockHasPassedItsWindow() {
        Limit fast = new Limit("rate:task:ping", 1, Duration.ofMillis(300));
        String a = due();
        String b = due();

        assertThat(permits.claim(claim(a), List.of(fast), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(jdbc().queryForObject(
                                "SELECT until_us - acquired_us FROM " + PREFIX + "permit WHERE instance_id = ?",
                                Long.class,
                                a))
                .as("its window, on the database's clock")
                .isCloseTo(300_000L, within(1_000L));
        // a still runs: only the time frees its slot
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> permits.claim(claim(b), List.of(fast), false).result() == Result.CLAIMED);
        assertThat(rowsOf(a)).as("its slot taken over").isZero();
        assertThat(rowsOf(b)).isOne();
    }

    @Test
    void aReleaseDeletesExpiredRateRowsOfKeysNoClaimTakesAgain() {
        for (int slot = 0; slot < 3; slot++) {
            rateRow("rate:task:removed", slot, 0);
        }
        rateRow("rate:task:later", 0, Long.MAX_VALUE / 2);
        String a = due();
        permits.claim(claim(a), List.of(MUTEX), false);
        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);

        permits.release(a, 1);
        assertThat(jdbc().queryForList("SELECT permit_key FROM " + PREFIX + "permit", String.class))
                .containsExactly("rate:task:later");
    }

    private void rateRow(String key, int slot, long untilUs) {
        jdbc().update(
                        "INSERT INTO " + PREFIX + "permit"
                                + " (permit_key, slot, instance_id, attempt, node, acquired_us, until_us)"
                                + " VALUES (?, ?, ?, 1, 'gone', 0, ?)",
                        key,
                        slot,
                        UUID.randomUUID().toString(),
                        untilUs);
    }

    @Test
    void aRowNamingAnInstanceThatIsGoneIsFree() {
        jdbc().update(
                        "INSERT INTO " + PREFIX + "permit (permit_key, slot, instance_id, attempt, node, acquired_us)"
                                + " VALUES (?, 0, ?, 1, 'gone', 0)",
                        MUTEX.key(),
                        UUID.randomUUID().toString());
        String a = due();

        assertThat(permits.claim(claim(a), List.of(MUTEX), false)).isEqualTo(Outcome.CLAIMED);
        assertThat(permits.held(10)).extracting(Held::instanceId).containsExactly(a);
        assertThat(rowsOf(a)).isOne();
        assertThat(jdbc().queryForObject("SELECT COUNT(*) FROM " + PREFIX + "permit", Integer.class))
                .isOne();
    }

    @Test
    void aReleaseDeletesTheRowsOfItsEndedAttempt() {
        String a = due();
        permits.claim(claim(a), List.of(MUTEX, new Limit("group:reports", 4)), false);
        assertThat(rowsOf(a)).isEqualTo(2);

        permits.release(a, 1);
        assertThat(rowsOf(a)).as("running: kept").isEqualTo(2);

        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        permits.release(a, 1);
        assertThat(rowsOf(a)).isZero();
    }

    private int rowsOf(String instanceId) {
        Integer n = jdbc().queryForObject(
                        "SELECT COUNT(*) FROM " + PREFIX + "permit WHERE instance_id = ?", Integer.class, instanceId);
        return n == null ? 0 : n;
    }

    private JdbcTemplate jdbc() {
        return new JdbcTemplate(database().dataSource());
    }
}
