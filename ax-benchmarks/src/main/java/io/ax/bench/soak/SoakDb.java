package io.ax.bench.soak;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import io.ax.bench.db.Postgres;
import io.ax.core.InstanceState;
import io.ax.jdbc.JdbcSchema;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The soak's own view of AX's tables, over a direct connection (not through the proxy), so it can read during an
 * outage: table sizes, stuck instances, and the checks at the end. It touches only the tables of its prefix.
 */
final class SoakDb implements AutoCloseable {

    /** AX's tables today (migrations V1-V14); only these are dropped before a run. */
    private static final List<String> TABLES = List.of(
            "audit",
            "dead_letter",
            "instance",
            "task",
            "leader",
            "node",
            "idempotency",
            "task_definition",
            "task_definition_audit",
            "partition",
            "activity",
            "permit",
            "schema_history");

    /** Row counts of the three tables that grow. */
    record Sizes(long instances, long audit, long deadLetters) {}

    /** What the end of the run finds in the tables. */
    record EndChecks(
            long seriesTwice, long attemptsRunTwice, List<String> illegalTransitions, long deadWithoutLetter) {}

    private final HikariDataSource pool;
    private final JdbcTemplate jdbc;
    private final String prefix;

    SoakDb(Options options, String prefix) {
        this.pool = new Postgres(options).pool("public", 2);
        this.jdbc = new JdbcTemplate(pool);
        this.prefix = JdbcSchema.checkPrefix(prefix);
    }

    /** Drops this prefix's tables, left by an earlier run, and creates them empty. */
    void recreateTables() {
        for (String table : TABLES) {
            jdbc.execute("DROP TABLE IF EXISTS " + prefix + table + " CASCADE");
        }
        JdbcSchema.migrate(pool, prefix);
    }

    Sizes sizes() {
        return new Sizes(count("instance"), count("audit"), count("dead_letter"));
    }

    /** Instances DISPATCHED or RUNNING whose row has not changed for {@code olderThan}. */
    long stuck(Duration olderThan) {
        long cutoffMicros =
                ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now().minus(olderThan));
        return jdbc.queryForObject(
                "SELECT count(*) FROM " + prefix
                        + "instance WHERE state IN ('DISPATCHED', 'RUNNING') AND updated_us < ?",
                Long.class,
                cutoffMicros);
    }

    /**
     * Over the whole run: trigger fires stored twice for one (task, fire time), attempts that went RUNNING twice in
     * the audit log, and audit rows whose arrow the state machine does not allow (a creation row has no from-state;
     * SCHEDULED to SCHEDULED is a new time), and DEAD instances without their dead letter (retention deletes the
     * two together).
     */
    EndChecks endChecks() {
        long seriesTwice = jdbc.queryForObject(
                "SELECT count(*) FROM (SELECT task_name, scheduled_us FROM " + prefix + "instance"
                        + " WHERE origin IN ('SERIES', 'CATCH_UP') GROUP BY task_name, scheduled_us HAVING count(*) > 1) d",
                Long.class);
        long runTwice = jdbc.queryForObject(
                "SELECT count(*) FROM (SELECT instance_id, attempt FROM " + prefix + "audit"
                        + " WHERE to_state = 'RUNNING' GROUP BY instance_id, attempt HAVING count(*) > 1) d",
                Long.class);
        List<String> illegal = new ArrayList<>();
        jdbc.query(
                "SELECT from_state, to_state, count(*) FROM " + prefix + "audit GROUP BY from_state, to_state", row -> {
                    String from = row.getString(1);
                    String to = row.getString(2);
                    if (!legal(from, to)) {
                        illegal.add(from + " -> " + to + " x" + row.getLong(3));
                    }
                });
        long deadWithoutLetter = jdbc.queryForObject(
                "SELECT count(*) FROM " + prefix + "instance i WHERE i.state = 'DEAD' AND NOT EXISTS (SELECT 1 FROM "
                        + prefix + "dead_letter d WHERE d.instance_id = i.id)",
                Long.class);
        return new EndChecks(seriesTwice, runTwice, illegal, deadWithoutLetter);
    }

    private static boolean legal(String from, String to) {
        try {
            InstanceState next = InstanceState.valueOf(to);
            return from == null
                    || from.equals(to)
                    || InstanceState.valueOf(from).canMoveTo(next);
        } catch (IllegalArgumentException notAState) {
            return false;
        }
    }

    private long count(String table) {
        return jdbc.queryForObject("SELECT count(*) FROM " + prefix + table, Long.class);
    }

    @Override
    public void close() {
        pool.close();
    }
}
