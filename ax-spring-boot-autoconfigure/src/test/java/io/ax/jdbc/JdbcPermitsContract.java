package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceState;
import io.ax.core.store.Permits.Held;
import io.ax.core.store.Permits.Limit;
import io.ax.core.store.Permits.Outcome;
import io.ax.test.jdbc.TestDatabase;
import io.ax.test.store.PermitsContract;
import java.util.List;
import java.util.UUID;
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
