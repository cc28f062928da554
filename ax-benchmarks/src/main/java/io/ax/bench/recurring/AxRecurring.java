package io.ax.bench.recurring;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.core.trigger.CronTrigger;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.jdbc.JdbcSchema;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * AX: one cron trigger per cadence shared by the tasks of that cadence (so they share one wheel entry), one pool of
 * {@code threads} workers whose queue holds every task at once (the worst burst: all groups due on the same
 * second). MEMORY keeps instances in the in-memory store; PERSISTENT in its JDBC store on the same PostgreSQL as
 * the peers (schema {@code bench_ax}), with the audit log.
 */
final class AxRecurring implements RecurringSystem {

    static final int RETENTION = 50_000;
    static final String SCHEMA = "bench_ax";

    /** The pool queue; 0 = big enough for every task at once. */
    private final int queue;
    /** The database of the PERSISTENT variant; null for MEMORY. */
    private final Postgres pg;

    private AxEngine engine;
    private HikariDataSource dataSource;

    AxRecurring(int queue, Postgres pg) {
        this.queue = queue;
        this.pg = pg;
    }

    @Override
    public String name() {
        return pg == null ? "AX" : "AX PERSISTENT";
    }

    @Override
    public boolean owns(String threadName) {
        return threadName.startsWith("ax-");
    }

    @Override
    public void setUp(Load load, int threads, Probe probe) throws Exception {
        InstanceStore store;
        if (pg == null) {
            store = new InMemoryInstanceStore(RETENTION);
        } else {
            pg.recreateSchema(SCHEMA);
            dataSource = pg.pool(SCHEMA, 4);
            JdbcSchema.migrate(dataSource, "ax_");
            store = new JdbcInstanceStore(dataSource, "ax_");
        }
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(new ProbeExecutor(probe))))
                .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(threads, queue > 0 ? queue : queueCapacity(load))))
                .build();
        for (Load.Group g : load.groups()) {
            CronTrigger trigger = CronTrigger.of(g.cadence().quartzCron, ZoneOffset.UTC);
            for (int i = 0; i < g.count(); i++) {
                engine.register(AxTask.builder(g.prefix() + "-" + i)
                        .trigger(trigger)
                        .durability(pg == null ? Durability.MEMORY : Durability.PERSISTENT)
                        .build());
            }
        }
    }

    static int queueCapacity(Load load) {
        return Math.max(20_000, load.tasks());
    }

    @Override
    public void start() throws Exception {
        engine.start();
        if (pg != null) {
            pg.analyze(SCHEMA); // as the peers: planner statistics once the first rows are in
        }
    }

    @Override
    public void tearDown() throws Exception {
        engine.stop();
        engine = null;
        if (dataSource != null) {
            dataSource.close();
            pg.dropSchema(SCHEMA);
        }
    }

    /** The no-op handler: records lateness against the instance's fire time. */
    private record ProbeExecutor(Probe probe) implements AxExecutor {

        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            probe.executed(context.scheduledTime());
            return null;
        }
    }
}
