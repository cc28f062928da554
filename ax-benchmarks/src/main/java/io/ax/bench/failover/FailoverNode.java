package io.ax.bench.failover;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.PartitionTerms;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.jdbc.JdbcInstanceStore;
import java.time.Duration;
import java.util.List;

/**
 * One node of a round: an {@link AxEngine} in this JVM on a pool of its own over the pair's multi-host URL, as a
 * user's application would reach a PostgreSQL that fails over. Two tasks: {@link #TICK}, a non-overlapping series at
 * a fixed rate, and {@link #JOB}, the target of delayed instances; both note their start in the round's log and
 * return. Not thread-safe: the round starts and closes it.
 */
final class FailoverNode implements AutoCloseable {

    static final String TICK = "tick";
    static final String JOB = "job";
    private static final int CONNECTIONS = 6;

    private final String id;
    private final AxEngine engine;
    private final HikariDataSource pool;

    private FailoverNode(String id, AxEngine engine, HikariDataSource pool) {
        this.id = id;
        this.engine = engine;
        this.pool = pool;
    }

    static FailoverNode start(
            String id, String url, String user, ClusterSettings cluster, Duration rate, FailoverLog log) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setMaximumPoolSize(CONNECTIONS);
        config.setConnectionTimeout(3_000); // what an application on a failing-over database would set
        config.setPoolName("failover-" + id);
        HikariDataSource pool = new HikariDataSource(config);
        try {
            AxEngine engine = AxEngine.builder()
                    .store(new JdbcInstanceStore(pool, "ax_"))
                    .nodeId(id)
                    .clusterSettings(cluster)
                    .router(new ExecutorRouter(List.of(new Handler(log))))
                    .defaultPool(new PoolSettings(4, 1_000))
                    .shutdownAwait(Duration.ofSeconds(2))
                    .build();
            engine.register(AxTask.builder(TICK)
                    .trigger(IntervalTrigger.fixedRate(rate, Duration.ZERO))
                    .build());
            engine.register(AxTask.builder(JOB).concurrent(true).build());
            engine.start();
            return new FailoverNode(id, engine, pool);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    String id() {
        return id;
    }

    AxEngine engine() {
        return engine;
    }

    /** How many partitions this node owns and may decide for now. */
    int deciding() {
        PartitionTerms terms = engine.status().partitions().orElse(null);
        return terms == null || !terms.decides() ? 0 : terms.owned().size();
    }

    /**
     * Whether this node's health would say DOWN for its store now: it cannot reach it, the store refuses its writes,
     * or it decides nothing because it found the store gone back in time.
     */
    boolean storeTrouble() {
        var s = engine.status();
        return s.storeContact().isPresent() || s.storeOutage().isPresent() || s.fencedByStoreRegression();
    }

    /** What this node last reported of a store that went back in time; empty when it found nothing. */
    java.util.Optional<io.ax.core.AxStoreRegressionEvent> regression() {
        return engine.status().storeRegression();
    }

    @Override
    public void close() {
        try {
            engine.stop();
        } finally {
            pool.close();
        }
    }

    /** Notes each start, with the fire time for the series (a lost row's fire made again has another id). */
    private record Handler(FailoverLog log) implements AxExecutor {

        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            log.started(
                    task.name(),
                    context.instanceId(),
                    TICK.equals(task.name()) ? context.scheduledTime() : null,
                    context.nodeId());
            return null;
        }
    }
}
