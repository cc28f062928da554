package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/** What the crash and failover tests prove from the database alone, once every node is gone. */
final class AuditTrails {

    private static final Set<String> TAKEOVER = Set.of("FAILED", "TIMEOUT", "SCHEDULED");

    private AuditTrails() {}

    /**
     * Every instance's audit trail starts with its creation, moves only along the arrows of the state machine and
     * ends in the instance's current state; and no instance started twice without a recorded end or takeover of the
     * first start (an attempt that failed or timed out, or an assignment taken back) between the two.
     */
    static void assertEveryTrailIsALegalPath(JdbcTemplate db, String prefix) {
        Map<String, String> current = new HashMap<>();
        db.query("SELECT id, state FROM " + prefix + "instance", rs -> {
            current.put(rs.getString(1), rs.getString(2));
        });
        Map<String, List<String[]>> trails = new HashMap<>();
        db.query("SELECT instance_id, from_state, to_state, node FROM " + prefix + "audit ORDER BY id", rs -> {
            trails.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                    .add(new String[] {rs.getString(2), rs.getString(3), rs.getString(4)});
        });
        assertThat(trails.keySet()).containsExactlyInAnyOrderElementsOf(current.keySet());
        trails.forEach((id, trail) -> {
            assertThat(trail.get(0)[0]).as(id + " starts with its creation").isNull();
            assertThat(trail.get(0)[1]).isEqualTo("CREATED");
            boolean started = false;
            for (int i = 1; i < trail.size(); i++) {
                InstanceState from = InstanceState.valueOf(trail.get(i)[0]);
                InstanceState to = InstanceState.valueOf(trail.get(i)[1]);
                assertThat(from.name())
                        .as(id + " step " + i + " starts where the last ended")
                        .isEqualTo(trail.get(i - 1)[1]);
                assertThat(from.canMoveTo(to))
                        .as(id + ": " + from + " -> " + to)
                        .isTrue();
                if (to == InstanceState.RUNNING) {
                    assertThat(started)
                            .as(id + " started again by " + trail.get(i)[2] + " with no end of the first start")
                            .isFalse();
                    started = true;
                } else if (TAKEOVER.contains(to.name()) || to.isFinal()) {
                    started = false;
                }
            }
            assertThat(trail.get(trail.size() - 1)[1])
                    .as(id + " ends in its current state")
                    .isEqualTo(current.get(id));
        });
        assertThat(trails).as("instances audited").hasSizeGreaterThan(10);
    }

    /**
     * The instances due by {@code markUs} that have not ended, each with its audit trail: what a test that waited
     * for them in vain reports.
     */
    static String describeUnfinished(JdbcTemplate db, String prefix, long markUs) {
        StringBuilder out = new StringBuilder();
        db.query(
                "SELECT id, task_name, state, owner, scheduled_us FROM " + prefix + "instance WHERE scheduled_us <= ?"
                        + " AND state NOT IN ('SUCCESS', 'DEAD', 'CANCELLED', 'SKIPPED') ORDER BY scheduled_us",
                rs -> {
                    String id = rs.getString(1);
                    out.append('\n')
                            .append(id)
                            .append(' ')
                            .append(rs.getString(2))
                            .append(' ')
                            .append(rs.getString(3))
                            .append(" owner ")
                            .append(rs.getString(4))
                            .append(" due ")
                            .append(rs.getLong(5))
                            .append(':');
                    db.query(
                            "SELECT from_state, to_state, node, at_us, reason FROM " + prefix
                                    + "audit WHERE instance_id = ? ORDER BY id",
                            a -> {
                                out.append("\n    ")
                                        .append(a.getString(1))
                                        .append(" -> ")
                                        .append(a.getString(2))
                                        .append(" by ")
                                        .append(a.getString(3))
                                        .append(" at ")
                                        .append(a.getLong(4))
                                        .append(": ")
                                        .append(a.getString(5));
                            },
                            id);
                },
                markUs);
        return out.toString();
    }

    /** No trigger fire (task, fire time) has two instances. */
    static void assertOneInstancePerFireTime(JdbcTemplate db, String prefix) {
        assertThat(db.queryForList(
                        "SELECT task_name FROM " + prefix + "instance WHERE origin = 'SERIES'"
                                + " GROUP BY task_name, scheduled_us HAVING COUNT(*) > 1",
                        String.class))
                .as("fire times with two instances")
                .isEmpty();
    }
}
