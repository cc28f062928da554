package io.ax.bench.db;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.Task;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;

/**
 * db-scheduler's table, as its {@code postgresql_tables.sql} defines it for version 16 (with the priority column
 * and its indexes), in a schema of its own. Its threads are named {@code db-scheduler-<n>} (executors),
 * {@code db-scheduler-execute-due-<n>} (the poller) and {@code db-scheduler-housekeeper-<n>}.
 */
public final class DbSchedulerSetup {

    public static final String SCHEMA = "bench_dbscheduler";

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

    private DbSchedulerSetup() {}

    /** Recreates the schema with an empty table; returns a pool of {@code connections} on it. */
    public static HikariDataSource create(Postgres pg, int connections) throws SQLException {
        pg.recreateSchema(SCHEMA);
        HikariDataSource ds = pg.pool(SCHEMA, connections);
        Postgres.runScript(ds, DDL);
        return ds;
    }

    /**
     * A scheduler as every scenario configures it: {@code threads} workers, polling every {@code pollingInterval}
     * (its default, 10 s, would make every lateness seconds long), a fixed name, 10 s to finish running executions
     * on stop. The caller picks the polling strategy.
     */
    public static SchedulerBuilder builder(DataSource ds, List<Task<?>> tasks, int threads, Duration pollingInterval) {
        return Scheduler.create(ds, tasks)
                .threads(threads)
                .pollingInterval(pollingInterval)
                .schedulerName(new SchedulerName.Fixed("bench"))
                .shutdownMaxWait(Duration.ofSeconds(10));
    }

    /** Whether a thread belongs to db-scheduler. */
    public static boolean owns(String threadName) {
        return threadName.startsWith("db-scheduler");
    }
}
