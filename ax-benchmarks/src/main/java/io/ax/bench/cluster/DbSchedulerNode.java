package io.ax.bench.cluster;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import io.ax.bench.db.DbSchedulerSetup;
import io.ax.bench.db.Postgres;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;

/**
 * One db-scheduler node in its own JVM, on the scenario's table (schema {@code bench_cluster_dbs}): configured as
 * in the other scenarios ({@link DbSchedulerSetup}: threads, polling every 100 ms, lock-and-fetch), but with a
 * scheduler name of its own, so that the nodes tell their picks apart. Tasks: the burst's {@code OneTimeTask}
 * {@code burst}, or one {@code RecurringTask} {@code sec} every second whose rows (instances {@code sec-<n>}) the
 * parent inserted. Handlers are no-ops that report to the node's {@link ExecutionLog}.
 */
final class DbSchedulerNode implements NodeSystem {

    static final Duration POLLING_INTERVAL = Duration.ofMillis(100);
    static final double LOWER_LIMIT = 0.5;
    static final double UPPER_LIMIT = 1.0;
    static final String BURST_TASK = "burst";
    static final String RECURRING_TASK = "sec";

    private final Scheduler scheduler;
    private final HikariDataSource dataSource;

    private DbSchedulerNode(Scheduler scheduler, HikariDataSource dataSource) {
        this.scheduler = scheduler;
        this.dataSource = dataSource;
    }

    static DbSchedulerNode start(Options o, ExecutionLog log) {
        int threads = o.getInt("threads", 20, 20);
        HikariDataSource ds = new Postgres(o).pool(o.get("schema", null), threads + 4);
        try {
            Task<?> task;
            if (o.get("load", "").equals("burst")) {
                task = Tasks.oneTime(BURST_TASK)
                        .execute((instance, context) -> log.executed(ExecutionLog.number(instance.getId()), null));
            } else {
                task = Tasks.recurring(RECURRING_TASK, Schedules.cron("* * * * * *", ZoneOffset.UTC))
                        .execute((instance, context) -> {
                            int n = ExecutionLog.number(instance.getId());
                            if (n >= 0) { // not the task's own default instance, "recurring"
                                var due = context.getExecution().getExecutionTime();
                                log.executed(ExecutionLog.fireKey(n, due), due);
                            }
                        });
            }
            Scheduler scheduler = DbSchedulerSetup.builder(ds, List.of(task), threads, POLLING_INTERVAL)
                    .schedulerName(new SchedulerName.Fixed(o.get("node-id", null)))
                    .pollUsingLockAndFetch(LOWER_LIMIT, UPPER_LIMIT)
                    .build();
            scheduler.start();
            return new DbSchedulerNode(scheduler, ds);
        } catch (RuntimeException e) {
            ds.close();
            throw e;
        }
    }

    @Override
    public String view() {
        return "leader=false live=0 epoch=0";
    }

    @Override
    public String storeCalls() {
        return "-";
    }

    @Override
    public void stop() {
        try {
            scheduler.stop();
        } finally {
            dataSource.close();
        }
    }
}
