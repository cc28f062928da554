package io.ax.sample.faults;

import io.ax.core.AxTask;
import io.ax.core.Rate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the cluster-wide limits this node's engine applies to the table {@code faults_limit}, where the fault
 * runner's checker learns what to judge: one row per task and limit, keyed as the engine keys its permits ({@code
 * task:<name>} for {@code maxConcurrent}, {@code mutex:<template>} for a mutex, the template unresolved, {@code
 * group:<name>} for the cluster limit of the task's group, and {@code rate:task:<name>} for the task's rate, with its
 * window). A limit that is not configured has no row, so the checker does not judge it; nor is a pool's rate
 * recorded (the workload configures none). Every node writes the same rows when it is ready, so that a write that
 * failed on one node is made by the next; a failure is logged. Its connection goes straight to the database, as the
 * {@link RunRecorder}'s do.
 */
final class LimitsRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(LimitsRecorder.class);

    private static final String CREATE = "CREATE TABLE IF NOT EXISTS faults_limit (task_name VARCHAR(200) NOT NULL,"
            + " limit_key VARCHAR(300) NOT NULL, permits INT NOT NULL, window_ms BIGINT,"
            + " PRIMARY KEY (task_name, limit_key))";

    private static final String WRITE = "INSERT INTO faults_limit (task_name, limit_key, permits, window_ms)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT (task_name, limit_key)"
            + " DO UPDATE SET permits = EXCLUDED.permits, window_ms = EXCLUDED.window_ms";

    /**
     * One limit of one task, as {@code faults_limit} keeps it.
     *
     * @param permits how many attempts may hold it at once; for a rate, how many may start in any window
     * @param window null for a limit of attempts at once; for a rate, its window
     */
    record Limit(String task, String key, int permits, Duration window) {

        /** A limit of attempts at once. */
        Limit(String task, String key, int permits) {
            this(task, key, permits, null);
        }
    }

    private final String url;
    private final String user;
    private final String password;

    /**
     * Creates the table, so that it is there before the runner starts the nodes that share it (two nodes creating
     * it at once may collide).
     *
     * @throws IllegalStateException when it cannot be created
     */
    LimitsRecorder(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
        try (Connection c = DriverManager.getConnection(url, user, password);
                Statement s = c.createStatement()) {
            s.execute(CREATE);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create faults_limit at " + url, e);
        }
    }

    /**
     * The limits of {@code tasks}: each one's own ({@code maxConcurrent}, mutex, rate) and its group's cluster limit,
     * from {@code clusterLimitOf} (0 for none).
     */
    static List<Limit> of(Collection<AxTask> tasks, ToIntFunction<String> clusterLimitOf) {
        List<Limit> out = new ArrayList<>();
        for (AxTask task : tasks) {
            if (task.limits().maxConcurrent() > 0) {
                out.add(new Limit(
                        task.name(), "task:" + task.name(), task.limits().maxConcurrent()));
            }
            if (task.limits().mutex() != null) {
                out.add(new Limit(task.name(), "mutex:" + task.limits().mutex(), 1));
            }
            Rate rate = task.limits().rate();
            if (rate != null) {
                out.add(new Limit(task.name(), "rate:task:" + task.name(), rate.permits(), rate.window()));
            }
            int groupLimit = clusterLimitOf.applyAsInt(task.group());
            if (groupLimit > 0) {
                out.add(new Limit(task.name(), "group:" + task.group(), groupLimit));
            }
        }
        return out;
    }

    /** Writes {@code limits} (each row anew); logs a failure, after which the checker finds the rows of another node. */
    void record(List<Limit> limits) {
        try (Connection c = DriverManager.getConnection(url, user, password);
                PreparedStatement s = c.prepareStatement(WRITE)) {
            for (Limit l : limits) {
                s.setString(1, l.task());
                s.setString(2, l.key());
                s.setInt(3, l.permits());
                s.setObject(4, l.window() == null ? null : l.window().toMillis(), Types.BIGINT);
                s.addBatch();
            }
            s.executeBatch();
            LOG.info("{} cluster-wide limit(s) written to faults_limit: {}", limits.size(), limits);
        } catch (SQLException e) {
            LOG.warn("The cluster-wide limits could not be written to faults_limit: {}", String.valueOf(e));
        }
    }
}
