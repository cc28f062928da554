package io.ax.bench.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What AX's own tables say about a run (parent side, after the nodes stopped): executions that ran twice, fires
 * written twice, and how the work spread over the nodes. Times are the {@code at_us} of the audit rows: each written
 * by the node that made the change, from its own clock when it made it (all nodes run on this host, so they read one
 * clock).
 */
final class Audit {

    /**
     * What the audit trail says.
     *
     * @param runTwice RUNNING rows that follow another RUNNING row of the same instance with no FAILED, TIMEOUT or
     *     SCHEDULED between them: a second run that no failure or take-back explains
     * @param seriesTwice (task, fire time) pairs with more than one SERIES instance
     * @param fireRunTwice (task, fire time) pairs of trigger fires (SERIES or CATCH_UP) with more than one instance
     *     that reached RUNNING
     * @param runningByNode RUNNING rows per node (the node that claimed and ran)
     * @param states instances per state
     */
    record Checks(
            long runTwice,
            long seriesTwice,
            long fireRunTwice,
            Map<String, Long> runningByNode,
            Map<String, Long> states) {

        long duplicates() {
            return runTwice + seriesTwice + fireRunTwice;
        }
    }

    /**
     * The fires of recurring tasks due in a window of whole seconds.
     *
     * @param expected tasks times seconds
     * @param succeeded (task, fire time) pairs with an instance that reached SUCCESS
     * @param states those instances per state
     * @param p99LateMillis lateness (first RUNNING row minus fire time) p99 of the fires that ran
     * @param maxLateMillis the same, the largest
     */
    record Fires(long expected, long succeeded, Map<String, Long> states, double p99LateMillis, double maxLateMillis) {

        long missed() {
            return expected - succeeded;
        }
    }

    private final JdbcTemplate jdbc;
    private final String p;

    Audit(JdbcTemplate jdbc, String prefix) {
        this.jdbc = jdbc;
        this.p = prefix;
    }

    /** The checks over the whole run, the spread over audit rows written in [fromUs, toUs). */
    Checks check(long fromUs, long toUs) {
        return new Checks(runTwice(), seriesTwice(), fireRunTwice(), runningByNode(fromUs, toUs), states());
    }

    long runTwice() {
        Long n = jdbc.queryForObject(
                "SELECT COUNT(*) FROM (SELECT to_state, LAG(to_state) OVER (PARTITION BY instance_id ORDER BY id) AS prev"
                        + " FROM " + p + "audit WHERE to_state IN ('RUNNING', 'FAILED', 'TIMEOUT', 'SCHEDULED')) t"
                        + " WHERE to_state = 'RUNNING' AND prev = 'RUNNING'",
                Long.class);
        return n == null ? 0 : n;
    }

    long seriesTwice() {
        Long n = jdbc.queryForObject(
                "SELECT COUNT(*) FROM (SELECT 1 FROM " + p + "instance WHERE origin = 'SERIES'"
                        + " GROUP BY task_name, scheduled_us HAVING COUNT(*) > 1) t",
                Long.class);
        return n == null ? 0 : n;
    }

    long fireRunTwice() {
        Long n = jdbc.queryForObject(
                "SELECT COUNT(*) FROM (SELECT 1 FROM " + p + "instance i WHERE i.origin IN ('SERIES', 'CATCH_UP')"
                        + " AND EXISTS (SELECT 1 FROM " + p + "audit a WHERE a.instance_id = i.id"
                        + " AND a.to_state = 'RUNNING')"
                        + " GROUP BY i.task_name, i.scheduled_us HAVING COUNT(*) > 1) t",
                Long.class);
        return n == null ? 0 : n;
    }

    Map<String, Long> runningByNode(long fromUs, long toUs) {
        Map<String, Long> out = new TreeMap<>();
        jdbc.query(
                "SELECT node, COUNT(*) FROM " + p + "audit WHERE to_state = 'RUNNING' AND at_us >= ? AND at_us < ?"
                        + " GROUP BY node",
                rs -> {
                    out.put(rs.getString(1), rs.getLong(2));
                },
                fromUs,
                toUs);
        return out;
    }

    Map<String, Long> states() {
        Map<String, Long> out = new LinkedHashMap<>();
        jdbc.query("SELECT state, COUNT(*) FROM " + p + "instance GROUP BY state ORDER BY state", rs -> {
            out.put(rs.getString(1), rs.getLong(2));
        });
        return out;
    }

    /** The fires due at the seconds {@code fromSecond} (inclusive) to {@code toSecond} (exclusive). */
    Fires fires(long fromSecond, long toSecond, int tasks) {
        long from = fromSecond * 1_000_000L;
        long to = toSecond * 1_000_000L;
        Map<String, Long> states = new LinkedHashMap<>();
        jdbc.query(
                "SELECT state, COUNT(*) FROM " + p + "instance WHERE scheduled_us >= ? AND scheduled_us < ?"
                        + " GROUP BY state ORDER BY state",
                rs -> {
                    states.put(rs.getString(1), rs.getLong(2));
                },
                from,
                to);
        Long succeeded = jdbc.queryForObject(
                "SELECT COUNT(*) FROM (SELECT DISTINCT task_name, scheduled_us FROM " + p + "instance"
                        + " WHERE state = 'SUCCESS' AND scheduled_us >= ? AND scheduled_us < ?) t",
                Long.class,
                from,
                to);
        double[] late = jdbc.queryForObject(
                "SELECT PERCENTILE_DISC(0.99) WITHIN GROUP (ORDER BY late), MAX(late) FROM"
                        + " (SELECT MIN(a.at_us) - i.scheduled_us AS late FROM " + p + "instance i JOIN " + p
                        + "audit a ON a.instance_id = i.id AND a.to_state = 'RUNNING'"
                        + " WHERE i.scheduled_us >= ? AND i.scheduled_us < ? GROUP BY i.id, i.scheduled_us) t",
                (rs, i) -> new double[] {millis(rs.getObject(1)), millis(rs.getObject(2))},
                from,
                to);
        return new Fires(tasks * (toSecond - fromSecond), succeeded == null ? 0 : succeeded, states, late[0], late[1]);
    }

    private static double millis(Object micros) {
        return micros == null ? Double.NaN : ((Number) micros).doubleValue() / 1000.0;
    }
}
