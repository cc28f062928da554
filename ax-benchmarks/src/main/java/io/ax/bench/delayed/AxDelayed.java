package io.ax.bench.delayed;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.Postgres;
import io.ax.bench.db.Probe;
import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.ScheduleRequest;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.store.InstanceStore;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.jdbc.JdbcSchema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * AX PERSISTENT: an {@link AxEngine} on its JDBC store in schema {@code bench_ax}, audit log on, with the default
 * prefetch window (60 s, pages of 5,000, at most 100,000 loaded). Executions go in through {@link
 * AxEngine#scheduleAll}, as an application would schedule them.
 */
final class AxDelayed implements DelayedSystem {

    static final String SCHEMA = "bench_ax";
    static final String PREFIX = "ax_";
    static final int CONNECTIONS = 4;

    /** Not final: what the store still has to run or is running. */
    private static final String UNFINISHED_STATES = Arrays.stream(InstanceState.values())
            .filter(s -> !s.isFinal())
            .map(s -> "'" + s.name() + "'")
            .collect(Collectors.joining(", "));

    private final Postgres pg;
    private HikariDataSource dataSource;
    private JdbcTemplate jdbc;
    private AxEngine engine;
    private TimedStore timed;
    private int threads;
    private int queue;
    private Map<Handler, Probe> probes;

    AxDelayed(Postgres pg) {
        this.pg = pg;
    }

    @Override
    public String name() {
        return "AX";
    }

    @Override
    public String schema() {
        return SCHEMA;
    }

    @Override
    public void open(int threads, int queue, Map<Handler, Probe> probes) throws Exception {
        this.threads = threads;
        this.queue = queue;
        this.probes = probes;
        pg.recreateSchema(SCHEMA);
        dataSource = pg.pool(SCHEMA, CONNECTIONS);
        jdbc = new JdbcTemplate(dataSource);
        JdbcSchema.migrate(dataSource, PREFIX);
        timed = TimedStore.around(new JdbcInstanceStore(dataSource, PREFIX));
        engine = newEngine(timed.store(), threads, queue, toProbes(probes), List.of());
        engine.start();
    }

    /**
     * The engine every AX run of this scenario uses, also in the child JVM of the restart: one on-demand task per
     * {@link Handler} plus {@code extraTasks}, all in one pool of {@code threads} workers whose queue holds
     * {@code queue} instances (the whole burst: no rejections).
     */
    static AxEngine newEngine(
            InstanceStore store,
            int threads,
            int queue,
            BiConsumer<String, Instant> executed,
            List<String> extraTasks) {
        AxEngine engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(new NoOpExecutor(executed))))
                .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(threads, queue)))
                .build();
        List<String> names = new ArrayList<>(extraTasks);
        for (Handler h : Handler.values()) {
            names.add(h.taskName);
        }
        for (String name : names) {
            engine.register(AxTask.builder(name).concurrent(true).build());
        }
        return engine;
    }

    static BiConsumer<String, Instant> toProbes(Map<Handler, Probe> probes) {
        Map<String, Probe> byTask = probes.entrySet().stream()
                .collect(Collectors.toUnmodifiableMap(e -> e.getKey().taskName, Map.Entry::getValue));
        return (task, scheduled) -> byTask.get(task).executed(scheduled);
    }

    @Override
    public void schedule(Handler handler, List<Instant> times) {
        List<ScheduleRequest> requests = new ArrayList<>(times.size());
        for (Instant t : times) {
            requests.add(ScheduleRequest.of(handler.taskName).at(t));
        }
        engine.scheduleAll(requests);
    }

    @Override
    public long unfinished(Handler handler) {
        Long n = jdbc.queryForObject(
                "SELECT COUNT(*) FROM " + PREFIX + "instance WHERE task_name = ? AND state IN (" + UNFINISHED_STATES
                        + ")",
                Long.class,
                handler.taskName);
        return n == null ? 0 : n;
    }

    @Override
    public String storeActivity() {
        StringBuilder out = new StringBuilder("store calls since start:");
        for (String method : List.of("schedule", "findScheduled", "transitionAll", "transition")) {
            TimedStore.Calls c = timed.calls(method);
            out.append(String.format(
                    Locale.ROOT,
                    " %s %,d calls, %,d rows, %,d refused, %.1f s;",
                    method,
                    c.count(),
                    c.rows(),
                    c.refused(),
                    c.seconds()));
        }
        return out.toString();
    }

    /** Stops the engine and closes its connections; the rows stay for the next start. */
    void stop() {
        engine.stop();
        engine = null;
        dataSource.close();
        dataSource = null;
    }

    /**
     * A fresh connection pool and a fresh engine on the rows left by {@link #stop()}, started; in this JVM.
     *
     * @return the seconds from building the pool until {@link AxEngine#start()} returned
     */
    double restart() {
        long t0 = System.nanoTime();
        dataSource = pg.pool(SCHEMA, CONNECTIONS);
        jdbc = new JdbcTemplate(dataSource);
        timed = TimedStore.around(new JdbcInstanceStore(dataSource, PREFIX));
        engine = newEngine(timed.store(), threads, queue, toProbes(probes), List.of());
        engine.start();
        return (System.nanoTime() - t0) / 1e9;
    }

    @Override
    public void close() throws Exception {
        if (engine != null) {
            stop();
        }
        pg.dropSchema(SCHEMA);
    }

    /** The no-op handler of every task: reports the task and the fire time its instance belongs to. */
    private record NoOpExecutor(BiConsumer<String, Instant> executed) implements AxExecutor {

        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            executed.accept(task.name(), context.scheduledTime());
            return null;
        }
    }
}
