package io.ax.bench.burst;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.store.NewFire;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.jdbc.JdbcSchema;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * AX with its JDBC store on the same PostgreSQL as the peers (schema {@code bench_ax}), audit log on. Like the
 * peers, the burst is written before the engine starts (not timed): {@code tasks} SCHEDULED instances of one
 * concurrent on-demand task, all due in the past. The engine's start-up recovery finds them due and runs them; the
 * time runs from {@link AxEngine#start()} until every instance is SUCCESS in the database.
 */
final class AxPersistentBurst implements BurstSystem {

    private static final String SCHEMA = "bench_ax";
    private static final String TASK = "burst";

    private final Postgres pg;
    private HikariDataSource dataSource;
    private AxEngine engine;
    private JdbcTemplate jdbc;
    private int tasks;

    AxPersistentBurst(Postgres pg) {
        this.pg = pg;
    }

    @Override
    public String name() {
        return "AX PERSISTENT";
    }

    @Override
    public void prepare(int tasks, int threads, Probe probe) throws Exception {
        this.tasks = tasks;
        pg.recreateSchema(SCHEMA);
        dataSource = pg.pool(SCHEMA, 4);
        jdbc = new JdbcTemplate(dataSource);
        JdbcSchema.migrate(dataSource, "ax_");
        JdbcInstanceStore store = new JdbcInstanceStore(dataSource, "ax_");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Instant due = now.minusSeconds(1);
        List<NewFire> chunk = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
            TaskInstance instance = new TaskInstance(
                    UUID.randomUUID().toString(),
                    TASK,
                    due.minus(tasks - i, ChronoUnit.MICROS),
                    InstanceState.SCHEDULED,
                    0,
                    "bench",
                    now,
                    InstanceOrigin.DELAYED,
                    null);
            chunk.add(new NewFire(instance, "burst"));
            if (chunk.size() == 5_000 || i == tasks - 1) {
                store.schedule(chunk);
                chunk.clear();
            }
        }
        pg.analyze(SCHEMA);
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(new AxBurst.CountingExecutor(probe))))
                .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(threads, tasks)))
                .build();
        engine.register(AxTask.builder(TASK).concurrent(true).build());
    }

    @Override
    public void start() {
        engine.start();
    }

    /** Every instance is SUCCESS in the database, not only run. */
    @Override
    public boolean drained() {
        Integer done = jdbc.queryForObject("SELECT COUNT(*) FROM ax_instance WHERE state = 'SUCCESS'", Integer.class);
        return done != null && done >= tasks;
    }

    @Override
    public void tearDown() throws Exception {
        engine.stop();
        engine = null;
        dataSource.close();
        pg.dropSchema(SCHEMA);
    }
}
