package io.ax.bench.recurring;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedule;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.DbSchedulerSetup;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * db-scheduler 16: one {@link RecurringTask} per cadence with a cron schedule, and one task instance (one row) per
 * benchmark task, so every row is scheduled independently; lock-and-fetch polling, as its docs recommend for
 * PostgreSQL; a 100 ms polling interval instead of the default 10 s.
 */
final class DbSchedulerRecurring implements RecurringSystem {

    static final Duration POLLING_INTERVAL = Duration.ofMillis(100);

    private final Postgres pg;
    private final double lowerLimit;
    private final double upperLimit;
    private HikariDataSource ds;
    private Scheduler scheduler;
    private Load load;

    DbSchedulerRecurring(Postgres pg, double lowerLimit, double upperLimit) {
        this.pg = pg;
        this.lowerLimit = lowerLimit;
        this.upperLimit = upperLimit;
    }

    @Override
    public String name() {
        return "db-scheduler";
    }

    @Override
    public boolean owns(String threadName) {
        return DbSchedulerSetup.owns(threadName);
    }

    @Override
    public void setUp(Load load, int threads, Probe probe) throws Exception {
        this.load = load;
        ds = DbSchedulerSetup.create(pg, threads + 4);
        List<Task<?>> tasks = new ArrayList<>();
        List<RecurringTask<Void>> recurring = new ArrayList<>();
        List<Schedule> schedules = new ArrayList<>();
        for (Load.Group g : load.groups()) {
            Schedule schedule = Schedules.cron(g.cadence().dbSchedulerCron, ZoneOffset.UTC);
            schedules.add(schedule);
            RecurringTask<Void> task = Tasks.recurring(g.prefix(), schedule)
                    .execute((instance, context) ->
                            probe.executed(context.getExecution().getExecutionTime()));
            tasks.add(task);
            recurring.add(task);
        }
        // one row per benchmark task, all inserted before the scheduler starts, each at its cron's first fire time
        SchedulerClient client = SchedulerClient.Builder.create(ds, tasks).build();
        Instant now = Instant.now();
        for (int k = 0; k < load.groups().size(); k++) {
            Load.Group g = load.groups().get(k);
            RecurringTask<Void> task = recurring.get(k);
            List<TaskInstance<?>> rows = new ArrayList<>(g.count());
            for (int i = 0; i < g.count(); i++) {
                rows.add(task.instance(g.prefix() + "-" + i));
            }
            client.scheduleBatch(rows, schedules.get(k).getInitialExecutionTime(now));
        }
        pg.analyze(DbSchedulerSetup.SCHEMA);
        scheduler = DbSchedulerSetup.builder(ds, tasks, threads, POLLING_INTERVAL)
                .pollUsingLockAndFetch(lowerLimit, upperLimit)
                .build();
    }

    @Override
    public void start() throws Exception {
        // as for Quartz: first fire at the first boundary after start, not after the (shorter) set-up
        Instant now = Instant.now();
        try (Connection c = ds.getConnection();
                PreparedStatement update =
                        c.prepareStatement("update scheduled_tasks set execution_time = ? where task_name = ?")) {
            for (Load.Group g : load.groups()) {
                update.setTimestamp(1, Timestamp.from(g.cadence().nextAfter(now)));
                update.setString(2, g.prefix());
                update.executeUpdate();
            }
        }
        scheduler.start();
    }

    @Override
    public void tearDown() throws Exception {
        scheduler.stop();
        ds.close();
        pg.dropSchema(DbSchedulerSetup.SCHEMA);
    }
}
