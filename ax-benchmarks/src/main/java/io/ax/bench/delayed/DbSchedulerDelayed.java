package io.ax.bench.delayed;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.SchedulableInstance;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.DbSchedulerSetup;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * db-scheduler 16: one {@link OneTimeTask} per handler, executions added with {@code scheduleBatch} of
 * {@link SchedulableInstance}s (each with its own time; one JDBC batch insert per call), lock-and-fetch polling
 * ({@code pollUsingLockAndFetch(0.5, 1.0)}, its recommendation for PostgreSQL) every 100 ms instead of the default
 * 10 s. A finished one-time execution's row is deleted, so "finished" means "no row left".
 */
final class DbSchedulerDelayed implements DelayedSystem {

    static final Duration POLLING_INTERVAL = Duration.ofMillis(100);
    static final double LOWER_LIMIT = 0.5;
    static final double UPPER_LIMIT = 1.0;

    private final Postgres pg;
    private final Map<Handler, OneTimeTask<Void>> tasks = new EnumMap<>(Handler.class);
    private final Map<Handler, Integer> issued = new EnumMap<>(Handler.class);
    private HikariDataSource ds;
    private Scheduler scheduler;

    DbSchedulerDelayed(Postgres pg) {
        this.pg = pg;
    }

    @Override
    public String name() {
        return "db-scheduler";
    }

    @Override
    public String schema() {
        return DbSchedulerSetup.SCHEMA;
    }

    @Override
    public void open(int threads, int queue, Map<Handler, Probe> probes) throws Exception {
        ds = DbSchedulerSetup.create(pg, threads + 4);
        List<Task<?>> all = new ArrayList<>();
        for (Handler h : Handler.values()) {
            Probe probe = probes.get(h);
            OneTimeTask<Void> task = Tasks.oneTime(h.taskName)
                    .execute((instance, context) ->
                            probe.executed(context.getExecution().getExecutionTime()));
            tasks.put(h, task);
            issued.put(h, 0);
            all.add(task);
        }
        scheduler = DbSchedulerSetup.builder(ds, all, threads, POLLING_INTERVAL)
                .pollUsingLockAndFetch(LOWER_LIMIT, UPPER_LIMIT)
                .build();
        scheduler.start();
    }

    @Override
    public void schedule(Handler handler, List<Instant> times) {
        OneTimeTask<Void> task = tasks.get(handler);
        int next = issued.get(handler);
        List<SchedulableInstance<?>> batch = new ArrayList<>(times.size());
        for (Instant t : times) {
            batch.add(SchedulableInstance.of(task.instance(handler.taskName + "-" + next++), t));
        }
        issued.put(handler, next);
        scheduler.scheduleBatch(batch);
    }

    @Override
    public long unfinished(Handler handler) throws Exception {
        try (Connection c = ds.getConnection();
                PreparedStatement s = c.prepareStatement("select count(*) from scheduled_tasks where task_name = ?")) {
            s.setString(1, handler.taskName);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    @Override
    public void close() throws Exception {
        scheduler.stop();
        ds.close();
        pg.dropSchema(DbSchedulerSetup.SCHEMA);
    }
}
