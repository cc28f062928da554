package io.ax.bench.cluster;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.DbSchedulerSetup;
import io.ax.bench.db.Postgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * db-scheduler's table as in the other scenarios ({@link DbSchedulerSetup}: its {@code postgresql_tables.sql} of
 * version 16), but in a schema of this scenario's own, {@code bench_cluster_dbs}, so that a run of another scenario
 * on the same database does not drop it; created again for every round.
 * The burst is inserted as in the {@code burst} scenario, with {@code scheduleBatch} of the {@code OneTimeTask}
 * (instances {@code i-<n>}); the recurring load as in the {@code recurring} scenario, one row per task (instances
 * {@code sec-<n>} of one {@code RecurringTask}), moved to the next second just before the nodes start.
 */
final class DbSchedulerCluster implements ClusterSystem {

    static final String SCHEMA = "bench_cluster_dbs";
    private static final int CHUNK = 10_000;
    private static final String DDL = """
            create table scheduled_tasks (
              task_name text not null,
              task_instance text not null,
              task_data bytea,
              execution_time timestamp with time zone not null,
              picked boolean not null,
              picked_by text,
              last_success timestamp with time zone,
              last_failure timestamp with time zone,
              consecutive_failures int,
              last_heartbeat timestamp with time zone,
              version bigint not null,
              priority smallint,
              primary key (task_name, task_instance)
            );
            create index execution_time_idx on scheduled_tasks (execution_time);
            create index last_heartbeat_idx on scheduled_tasks (last_heartbeat);
            create index priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc);
            """;

    private final Postgres pg;
    private HikariDataSource dataSource;

    DbSchedulerCluster(Postgres pg) {
        this.pg = pg;
    }

    @Override
    public String name() {
        return "db-scheduler";
    }

    @Override
    public List<String> nodeArgs() {
        return List.of("--system=db-scheduler", "--schema=" + SCHEMA);
    }

    @Override
    public void recreate(Part part) throws SQLException {
        closePool();
        pg.recreateSchema(SCHEMA);
        dataSource = pg.pool(SCHEMA, 2);
        Postgres.runScript(dataSource, DDL);
    }

    @Override
    public void writeBurst(int first, int count, Instant due) throws SQLException {
        OneTimeTask<Void> task = Tasks.oneTime(DbSchedulerNode.BURST_TASK).execute((instance, context) -> {});
        SchedulerClient client =
                SchedulerClient.Builder.create(dataSource, task).build();
        List<TaskInstance<?>> rows = new ArrayList<>(CHUNK);
        for (int i = 0; i < count; i++) {
            rows.add(task.instance("i-" + (first + i)));
            if (rows.size() == CHUNK || i == count - 1) {
                client.scheduleBatch(rows, due);
                rows.clear();
            }
        }
        analyze();
    }

    @Override
    public void clearBurst() {
        // nothing: db-scheduler deletes a one-time execution's row when it completes
    }

    @Override
    public long burstLeft(int count) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("select count(*) from scheduled_tasks where task_name = ?")) {
            s.setString(1, DbSchedulerNode.BURST_TASK);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    @Override
    public void prepareRecurring(int tasks) throws SQLException {
        RecurringTask<Void> task = Tasks.recurring(
                        DbSchedulerNode.RECURRING_TASK, Schedules.cron("* * * * * *", ZoneOffset.UTC))
                .execute((instance, context) -> {});
        SchedulerClient client =
                SchedulerClient.Builder.create(dataSource, task).build();
        List<TaskInstance<?>> rows = new ArrayList<>(tasks);
        for (int i = 0; i < tasks; i++) {
            rows.add(task.instance(AxNode.RECURRING_PREFIX + i));
        }
        client.scheduleBatch(rows, nextSecond());
        analyze();
    }

    /** As the {@code recurring} scenario does at start: the first fire of every row at the next second. */
    void dueAtNextSecond() throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s =
                        c.prepareStatement("update scheduled_tasks set execution_time = ? where task_name = ?")) {
            s.setTimestamp(1, Timestamp.from(nextSecond()));
            s.setString(2, DbSchedulerNode.RECURRING_TASK);
            s.executeUpdate();
        }
    }

    private static Instant nextSecond() {
        return Instant.ofEpochSecond(Instant.now().getEpochSecond() + 1);
    }

    @Override
    public void analyze() throws SQLException {
        pg.analyze(SCHEMA);
    }

    @Override
    public void drop(Part part) throws SQLException {
        closePool();
        pg.dropSchema(SCHEMA);
    }

    private void closePool() {
        if (dataSource != null) {
            dataSource.close();
            dataSource = null;
        }
    }

    @Override
    public void close() {
        closePool();
    }
}
