package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What an outage test proves from the database alone, read over a direct connection (never through the proxy under
 * test): each failure message carries the audit trail of the instance at fault, so that a failure in CI says what
 * happened without a rerun.
 */
final class OutageChecks {

    /** States that end a start: an attempt that failed or timed out, or an assignment taken back. */
    private static final Set<InstanceState> END_OF_START =
            Set.of(InstanceState.FAILED, InstanceState.TIMEOUT, InstanceState.SCHEDULED);

    private static final int SHOWN = 10;

    private final JdbcTemplate db;
    private final String prefix;

    OutageChecks(JdbcTemplate db, String prefix) {
        this.db = db;
        this.prefix = prefix;
    }

    /** One row of an audit trail. */
    record Step(String from, String to, String node, int attempt, long atUs, String reason) {
        @Override
        public String toString() {
            return from + " -> " + to + " (attempt " + attempt + ", node " + node + ", at "
                    + Instant.ofEpochSecond(0, atUs * 1_000) + "): " + reason;
        }
    }

    /** No trigger fire (task, fire time) has two instances. */
    void assertOneInstancePerFireTime() {
        assertThat(db.queryForList(
                        "SELECT task_name || ' @ ' || scheduled_us FROM " + prefix + "instance"
                                + " WHERE origin IN ('SERIES', 'CATCH_UP')"
                                + " GROUP BY task_name, scheduled_us HAVING COUNT(*) > 1",
                        String.class))
                .as("fire times with two instances")
                .isEmpty();
    }

    /**
     * Every instance's audit trail starts with its creation, moves only along the arrows of the state machine and
     * ends in the instance's current state; no instance started twice without an end or a takeover of its first
     * start between the two.
     */
    void assertEveryTrailIsALegalPath() {
        Map<String, String> current = new HashMap<>();
        db.query("SELECT id, state FROM " + prefix + "instance", rs -> {
            current.put(rs.getString(1), rs.getString(2));
        });
        Map<String, List<Step>> trails = trails(null);
        List<String> problems = new ArrayList<>();
        for (String id : current.keySet()) {
            if (!trails.containsKey(id)) {
                problems.add(id + " has no audit trail");
            }
        }
        trails.forEach((id, trail) -> {
            String problem = problem(trail, current.get(id));
            if (problem != null) {
                problems.add(id + ": " + problem + "\n    " + String.join("\n    ", render(trail)));
            }
        });
        assertThat(problems)
                .as(
                        "illegal audit trails (%d, the first %d shown):%n%s",
                        problems.size(),
                        SHOWN,
                        String.join("\n", problems.subList(0, Math.min(SHOWN, problems.size()))))
                .isEmpty();
    }

    private static String problem(List<Step> trail, String current) {
        if (current == null) {
            return "audited, but no such instance";
        }
        if (trail.get(0).from() != null || !"CREATED".equals(trail.get(0).to())) {
            return "does not start with its creation";
        }
        boolean started = false;
        for (int i = 1; i < trail.size(); i++) {
            Step step = trail.get(i);
            if (!trail.get(i - 1).to().equals(step.from())) {
                return "step " + i + " does not start where the last ended";
            }
            InstanceState from = InstanceState.valueOf(step.from());
            InstanceState to = InstanceState.valueOf(step.to());
            if (!from.canMoveTo(to)) {
                return "step " + i + " is no arrow of the state machine";
            }
            if (to == InstanceState.RUNNING) {
                if (started) {
                    return "started again at step " + i + " with no end or takeover of the first start";
                }
                started = true;
            } else if (END_OF_START.contains(to) || to.isFinal()) {
                started = false;
            }
        }
        String last = trail.get(trail.size() - 1).to();
        return last.equals(current) ? null : "ends in " + last + " but the instance is " + current;
    }

    /**
     * Instances due at or before {@code markUs} that are not finished, each with its audit trail; with {@code
     * alsoScheduled} false, only those in flight (DISPATCHED, RUNNING, FAILED, TIMEOUT, RETRYING).
     */
    List<String> unfinishedBefore(long markUs, boolean alsoScheduled) {
        List<String> ids = db.queryForList(
                "SELECT id FROM " + prefix + "instance WHERE scheduled_us <= ?"
                        + " AND state NOT IN ('SUCCESS', 'DEAD', 'CANCELLED', 'SKIPPED')"
                        + (alsoScheduled ? "" : " AND state <> 'SCHEDULED'")
                        + " ORDER BY scheduled_us",
                String.class,
                markUs);
        return ids;
    }

    /**
     * SCHEDULED instances that a stopping node returned after it acknowledged them (RUNNING -&gt; SCHEDULED): an
     * attempt claimed as the pools shut, which did not start and waits for the next start or another node.
     */
    List<String> returnedByAStop() {
        return db.queryForList(
                "SELECT DISTINCT i.id FROM " + prefix + "instance i JOIN " + prefix + "audit a ON a.instance_id = i.id"
                        + " WHERE i.state = 'SCHEDULED' AND a.from_state = 'RUNNING' AND a.to_state = 'SCHEDULED'",
                String.class);
    }

    /** How many instances due at or before {@code markUs} are not finished. */
    int countUnfinishedBefore(long markUs) {
        Integer n = db.queryForObject(
                "SELECT COUNT(*) FROM " + prefix + "instance WHERE scheduled_us <= ?"
                        + " AND state NOT IN ('SUCCESS', 'DEAD', 'CANCELLED', 'SKIPPED')",
                Integer.class,
                markUs);
        return n == null ? 0 : n;
    }

    /** A readable account of instances: state, origin, due time and audit trail, the first few. */
    String describe(List<String> ids) {
        if (ids.isEmpty()) {
            return "none";
        }
        List<String> shown = ids.subList(0, Math.min(SHOWN, ids.size()));
        Map<String, List<Step>> trails = trails(shown);
        StringBuilder out = new StringBuilder(ids.size() + " instance(s), the first " + shown.size() + ":");
        for (String id : shown) {
            Map<String, Object> row = db.queryForMap(
                    "SELECT task_name, state, origin, attempt, owner, scheduled_us FROM " + prefix
                            + "instance WHERE id = ?",
                    id);
            out.append("\n  ")
                    .append(id)
                    .append(' ')
                    .append(row.get("task_name"))
                    .append(' ')
                    .append(row.get("state"))
                    .append(" (")
                    .append(row.get("origin"))
                    .append(", attempt ")
                    .append(row.get("attempt"))
                    .append(", owner ")
                    .append(row.get("owner"))
                    .append(", due ")
                    .append(Instant.ofEpochSecond(0, ((Number) row.get("scheduled_us")).longValue() * 1_000))
                    .append(")");
            for (String line : render(trails.getOrDefault(id, List.of()))) {
                out.append("\n    ").append(line);
            }
        }
        return out.toString();
    }

    /** The instances in a state, by id. */
    List<String> idsIn(String state) {
        return db.queryForList("SELECT id FROM " + prefix + "instance WHERE state = ?", String.class, state);
    }

    /** Per task, the due times (microseconds) of its SERIES instances that ended in SUCCESS, at or after {@code fromUs}. */
    Map<String, List<Long>> successfulSeriesFiresFrom(long fromUs) {
        Map<String, List<Long>> fires = new LinkedHashMap<>();
        db.query(
                "SELECT task_name, scheduled_us FROM " + prefix + "instance WHERE origin = 'SERIES'"
                        + " AND state = 'SUCCESS' AND scheduled_us >= ? ORDER BY task_name, scheduled_us",
                rs -> {
                    fires.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                            .add(rs.getLong(2));
                },
                fromUs);
        return fires;
    }

    /** How many audit rows say a step happened whose reason contains {@code text}. */
    int auditedWith(String text) {
        Integer n = db.queryForObject(
                "SELECT COUNT(*) FROM " + prefix + "audit WHERE reason LIKE ?", Integer.class, "%" + text + "%");
        return n == null ? 0 : n;
    }

    private Map<String, List<Step>> trails(List<String> only) {
        Map<String, List<Step>> trails = new HashMap<>();
        String sql = "SELECT instance_id, from_state, to_state, node, attempt, at_us, reason FROM " + prefix + "audit"
                + (only == null ? "" : " WHERE instance_id = ANY (?)") + " ORDER BY id";
        org.springframework.jdbc.core.RowCallbackHandler row = rs -> {
            trails.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                    .add(new Step(
                            rs.getString(2),
                            rs.getString(3),
                            rs.getString(4),
                            rs.getInt(5),
                            rs.getLong(6),
                            rs.getString(7)));
        };
        if (only == null) {
            db.query(sql, row);
        } else {
            db.query(sql, row, (Object) only.toArray(new String[0]));
        }
        return trails;
    }

    private static List<String> render(List<Step> trail) {
        return trail.stream().map(Step::toString).toList();
    }
}
