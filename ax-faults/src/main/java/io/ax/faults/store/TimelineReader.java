package io.ax.faults.store;

import io.ax.faults.Log;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reads what a failover lost: the stopped primary's data folder is started alone (read-only sessions) and its AX
 * history since shortly before the standby's last replayed commit is compared with the history of the primary that
 * took over. An audit row (instance, transition, attempt, database time of the write), an instance or an order
 * (id and its close) the old timeline has and the new one does not is lost; each goes to {@code faults_lost} in the
 * witness database, under the failover's row of {@code faults_failover}.
 */
public final class TimelineReader {

    /**
     * How far before the standby's last replayed commit to look: a transaction whose statements ran earlier may have
     * committed after it.
     */
    private static final long BEFORE_US = 10_000_000;

    private final PgPair pair;
    private final JdbcTemplate witness;

    public TimelineReader(PgPair pair, JdbcTemplate witness) {
        this.pair = pair;
        this.witness = witness;
    }

    /** A row of the old timeline that the new one does not have. */
    record Lost(String what, String instanceId, String detail, long atUs) {}

    /**
     * Compares a failover's old timeline with the current primary and records what was lost.
     *
     * @param failoverId the failover's row in {@code faults_failover}
     * @return how many rows were lost
     */
    public int read(long failoverId, PgPair.Failover failover) throws SQLException {
        long since = failover.replayedUntilUs() == 0 ? 0 : failover.replayedUntilUs() - BEFORE_US;
        int port = pair.startStandAlone(failover.oldData());
        List<Lost> lost;
        try (Connection old = connect(PgPair.multiHostUrl(List.of(port), pair.database(), "")
                        .replace("targetServerType=primary", "targetServerType=any"));
                Connection now = connect(pair.url())) {
            lost = compare(old, now, since);
        } finally {
            pair.stopStandAlone(failover.oldData());
        }
        for (Lost l : lost) {
            witness.update(
                    "INSERT INTO faults_lost (failover_id, what, instance_id, detail, at_us) VALUES (?, ?, ?, ?, ?)",
                    failoverId,
                    l.what(),
                    l.instanceId(),
                    l.detail(),
                    l.atUs());
        }
        witness.update("UPDATE faults_failover SET lost_rows = ? WHERE id = ?", lost.size(), failoverId);
        Log.info("failover %d: %d row(s) of the old timeline missing on the new one", failoverId, lost.size());
        return lost.size();
    }

    private static List<Lost> compare(Connection old, Connection now, long since) throws SQLException {
        List<Lost> out = new ArrayList<>();
        String audit = "SELECT instance_id, COALESCE(from_state, '-'), to_state, attempt, COALESCE(node, ''),"
                + " CAST(EXTRACT(EPOCH FROM db_at) * 1000000 AS BIGINT) FROM ax_audit"
                + " WHERE db_at > to_timestamp(? / 1000000.0) ORDER BY db_at, id";
        Set<String> kept = new HashSet<>();
        for (String[] r : rows(now, audit, since, 6)) {
            kept.add(r[0] + "|" + r[2] + "|" + r[3] + "|" + r[5]);
        }
        for (String[] r : rows(old, audit, since, 6)) {
            if (!kept.contains(r[0] + "|" + r[2] + "|" + r[3] + "|" + r[5])) {
                out.add(new Lost(
                        "transition",
                        r[0],
                        r[1] + " -> " + r[2] + " by " + r[4] + ", attempt " + r[3],
                        Long.parseLong(r[5])));
            }
        }
        Set<String> instances = new HashSet<>();
        for (String[] r : rows(now, "SELECT id FROM ax_instance", null, 1)) {
            instances.add(r[0]);
        }
        String created = "SELECT i.id, i.task_name, i.origin, CAST(EXTRACT(EPOCH FROM a.db_at) * 1000000 AS BIGINT)"
                + " FROM ax_instance i JOIN ax_audit a ON a.instance_id = i.id AND a.to_state = 'CREATED'"
                + " WHERE a.db_at > to_timestamp(? / 1000000.0)";
        for (String[] r : rows(old, created, since, 4)) {
            if (!instances.contains(r[0])) {
                out.add(new Lost("instance", r[0], r[1] + " (" + r[2] + ")", Long.parseLong(r[3])));
            }
        }
        if (hasOrders(old) && hasOrders(now)) {
            Set<String> orders = new HashSet<>();
            String all = "SELECT id, COALESCE(close_instance, ''), state FROM sample_order";
            for (String[] r : rows(now, all, null, 3)) {
                orders.add(r[0] + "|" + r[1]);
            }
            for (String[] r : rows(old, all, null, 3)) {
                if (!orders.contains(r[0] + "|" + r[1])) {
                    out.add(new Lost(
                            "order", r[1].isEmpty() ? null : r[1], "order " + r[0] + " (" + r[2] + ")", since));
                }
            }
        }
        return out;
    }

    private static boolean hasOrders(Connection c) throws SQLException {
        return !rows(c, "SELECT 1 WHERE to_regclass('sample_order') IS NOT NULL", null, 1)
                .isEmpty();
    }

    private static List<String[]> rows(Connection c, String sql, Long since, int columns) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            if (since != null) {
                s.setLong(1, since);
            }
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String[] row = new String[columns];
                    for (int i = 0; i < columns; i++) {
                        row[i] = rs.getString(i + 1);
                    }
                    out.add(row);
                }
            }
        }
        return out;
    }

    private static Connection connect(String url) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        p.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(url, p);
    }
}
