package io.ax.bench.burst;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.DbSchedulerSetup;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * db-scheduler 16: one {@link OneTimeTask} with {@code tasks} instances, all due a second ago, inserted with
 * {@code scheduleBatch} before the scheduler starts. Either lock-and-fetch ({@code pollUsingLockAndFetch(0.5, 1.0)},
 * one {@code UPDATE ... RETURNING} with {@code SKIP LOCKED}) or the default fetch-and-lock-on-execute (db-scheduler's
 * default {@code pollUsingFetchAndLockOnExecute(0.5, 3.0)}: select a batch, then claim each row with its own
 * update). Polling interval 100 ms in both.
 */
final class DbSchedulerBurst implements BurstSystem {

    static final Duration POLLING_INTERVAL = Duration.ofMillis(100);

    private final Postgres pg;
    private final boolean lockAndFetch;
    private HikariDataSource ds;
    private Scheduler scheduler;

    DbSchedulerBurst(Postgres pg, boolean lockAndFetch) {
        this.pg = pg;
        this.lockAndFetch = lockAndFetch;
    }

    @Override
    public String name() {
        return lockAndFetch ? "db-scheduler lock-and-fetch" : "db-scheduler fetch";
    }

    @Override
    public void prepare(int tasks, int threads, Probe probe) throws SQLException {
        ds = DbSchedulerSetup.create(pg, threads + 4);
        OneTimeTask<Void> task = Tasks.oneTime("burst").execute((instance, context) -> probe.done());
        SchedulerClient client = SchedulerClient.Builder.create(ds, task).build();
        Instant due = Instant.now().minusSeconds(1);
        List<TaskInstance<?>> rows = new ArrayList<>(10_000);
        for (int i = 0; i < tasks; i++) {
            rows.add(task.instance("i-" + i));
            if (rows.size() == 10_000) {
                client.scheduleBatch(rows, due);
                rows.clear();
            }
        }
        if (!rows.isEmpty()) {
            client.scheduleBatch(rows, due);
        }
        pg.analyze(DbSchedulerSetup.SCHEMA);
        SchedulerBuilder builder = DbSchedulerSetup.builder(ds, List.of(task), threads, POLLING_INTERVAL);
        if (lockAndFetch) {
            builder.pollUsingLockAndFetch(0.5, 1.0);
        }
        scheduler = builder.build();
    }

    @Override
    public void start() {
        scheduler.start();
    }

    @Override
    public boolean drained() throws Exception {
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("select count(*) from scheduled_tasks")) {
            r.next();
            return r.getLong(1) == 0;
        }
    }

    @Override
    public void tearDown() throws Exception {
        scheduler.stop();
        ds.close();
        pg.dropSchema(DbSchedulerSetup.SCHEMA);
    }
}
