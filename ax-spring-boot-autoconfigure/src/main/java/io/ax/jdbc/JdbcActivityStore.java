package io.ax.jdbc;

import io.ax.core.AxException;
import io.ax.core.store.ActivityRow;
import io.ax.core.store.ActivityStore;
import io.ax.core.store.ActivityTotals;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The activity rollup in {@code <prefix>activity} (migration V9). A save writes each row over the one of its key, if
 * there is one (the database's upsert), all in one transaction; no other process writes the same rows (each has its
 * own writer id), so nothing races. A writer saves the rows of the minute under way again and again: an update of
 * their counts in place, where deleting each and inserting it again left a dead row version per save that every
 * later save of the key walked past. Thread-safe.
 */
final class JdbcActivityStore implements ActivityStore {

    private static final List<String> COLUMN_LIST = List.of(
            "minute_us",
            "task_name",
            "node_id",
            "writer",
            "fires",
            "successes",
            "failures",
            "timeouts",
            "dead_letters",
            "lateness");
    private static final String COLUMNS = String.join(", ", COLUMN_LIST);
    private static final List<String> KEY = List.of("task_name", "minute_us", "node_id", "writer");

    private final JdbcTemplate jdbc;
    private final JdbcBatches batches;
    private final Transactions tx;
    private final String delete;
    private final String save;
    private final String find;
    private final String totals;
    private final String expired;

    JdbcActivityStore(JdbcTemplate jdbc, JdbcBatches batches, Transactions tx, Dialect dialect, String prefix) {
        this.jdbc = jdbc;
        this.batches = batches;
        this.tx = tx;
        String table = prefix + "activity";
        String key = " WHERE task_name = ? AND minute_us = ? AND node_id = ? AND writer = ?";
        delete = "DELETE FROM " + table + key;
        save = dialect.upsert(table, COLUMN_LIST, KEY);
        find = "SELECT " + COLUMNS + " FROM " + table + " WHERE task_name = ? AND minute_us >= ? AND minute_us < ?";
        // the minutes' range by the minute's index, summed in the database: one short row per task comes back
        totals = "SELECT task_name, SUM(fires), SUM(successes), SUM(failures), SUM(timeouts), SUM(dead_letters)"
                + " FROM " + table + " WHERE minute_us >= ? AND minute_us < ? GROUP BY task_name";
        // the oldest first, by the minute's index, a batch at a time
        expired = "SELECT task_name, minute_us, node_id, writer FROM " + table
                + " WHERE minute_us < ? ORDER BY minute_us LIMIT ?";
    }

    @Override
    public void save(List<ActivityRow> rows) {
        if (rows.isEmpty()) {
            return;
        }
        List<Object[]> values = new ArrayList<>(rows.size());
        for (ActivityRow r : rows) {
            long minute = Micros.of(r.minute());
            values.add(new Object[] {
                minute,
                r.task(),
                r.node(),
                r.writer(),
                r.fires(),
                r.successes(),
                r.failures(),
                r.timeouts(),
                r.deadLetters(),
                r.lateness()
            });
        }
        try {
            tx.run(() -> batches.run(save, values));
        } catch (DataAccessException e) {
            throw new AxException(
                    "Cannot save " + rows.size() + " row(s) of the activity rollup: " + e.getMessage(), e);
        }
    }

    @Override
    public List<ActivityRow> find(String task, Instant from, Instant to) {
        Objects.requireNonNull(task, "task");
        try {
            return jdbc.query(
                    find,
                    (rs, n) -> new ActivityRow(
                            Micros.instant(rs.getLong(1)),
                            rs.getString(2),
                            rs.getString(3),
                            rs.getString(4),
                            rs.getLong(5),
                            rs.getLong(6),
                            rs.getLong(7),
                            rs.getLong(8),
                            rs.getLong(9),
                            rs.getString(10)),
                    task,
                    Micros.above(from),
                    Micros.above(to));
        } catch (DataAccessException e) {
            throw new AxException("Cannot read the activity rollup: " + e.getMessage(), e);
        }
    }

    @Override
    public List<ActivityTotals> totals(Instant from, Instant to) {
        try {
            return jdbc.query(
                    totals,
                    (rs, n) -> new ActivityTotals(
                            rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6)),
                    Micros.above(from),
                    Micros.above(to));
        } catch (DataAccessException e) {
            throw new AxException("Cannot read the activity rollup's totals: " + e.getMessage(), e);
        }
    }

    @Override
    public int deleteBefore(Instant before, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        try {
            List<Object[]> old = jdbc.query(
                    expired,
                    (rs, n) -> new Object[] {rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4)},
                    Micros.above(before),
                    limit);
            if (old.isEmpty()) {
                return 0;
            }
            // deleted by key: a row a writer saved again meanwhile (it cannot, being this old) would simply go
            batches.run(delete, old);
            return old.size();
        } catch (DataAccessException e) {
            throw new AxException("Cannot delete old rows of the activity rollup: " + e.getMessage(), e);
        }
    }
}
