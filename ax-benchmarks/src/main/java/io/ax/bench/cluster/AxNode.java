package io.ax.bench.cluster;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.Options;
import io.ax.bench.db.Postgres;
import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.TaskLimits;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.ClusterView;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.AxEngineBuilder;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.trigger.CronTrigger;
import io.ax.jdbc.JdbcInstanceStore;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * One AX node in its own JVM: an {@link AxEngine} on its JDBC store (PostgreSQL, the scenario's schema and table
 * prefix), so that it joins the cluster of every other engine on those tables. Its tasks are those of the load: the
 * burst's one on-demand task ({@code concurrent}), or {@code tasks} recurring tasks {@code sec-<n>} that fire every
 * second (load {@code recurring}: one shared cron trigger, as in the {@code recurring} scenario, so all at the turn
 * of each second). Every handler is a no-op that reports to the node's {@link ExecutionLog}. The wake-ups between the
 * nodes are the store's own (PostgreSQL {@code LISTEN/NOTIFY}); with {@code --permits=redis} the permits of
 * cluster-wide limits are kept on Redis (see {@link NodeRedis}).
 */
final class AxNode implements NodeSystem {

    static final String BURST_TASK = "burst";
    static final String RECURRING_PREFIX = "sec-";
    static final int CONNECTIONS = 4;
    /** The high bits of every burst instance id: the low bits are the execution's number. */
    private static final long BURST_ID_MARK = 0x0a0b_0c0d_0000_4000L;

    private final AxEngine engine;
    private final HikariDataSource dataSource;
    private final CountingStore counted;
    private final NodeRedis redis;

    private AxNode(AxEngine engine, HikariDataSource dataSource, CountingStore counted, NodeRedis redis) {
        this.engine = engine;
        this.dataSource = dataSource;
        this.counted = counted;
        this.redis = redis;
    }

    /** Builds the engine the options describe and starts it (it joins the cluster before this returns). */
    static AxNode start(Options o, ExecutionLog log) {
        HikariDataSource ds = new Postgres(o).pool(o.get("schema", null), CONNECTIONS);
        NodeRedis redis = null;
        try {
            int threads = o.getInt("threads", 20, 20);
            int queue = o.getInt("queue", 20_000, 20_000);
            String load = o.get("load", "");
            boolean burst = load.equals("burst");
            JdbcInstanceStore store = new JdbcInstanceStore(ds, o.get("prefix", null));
            CountingStore counted = CountingStore.around(store);
            AxEngineBuilder builder = AxEngine.builder()
                    .store(counted.store())
                    .nodeId(o.get("node-id", null))
                    .clusterSettings(settings(o))
                    .router(new ExecutorRouter(List.of(new NoOpExecutor(log, burst))))
                    .pools(Map.of(
                            AxTask.DEFAULT_GROUP,
                            new PoolSettings(threads, queue)
                                    .clusterLimit(o.get("limit", "none").equals("group") ? NEVER_WAITS : 0)));
            if (o.get("permits", "store").equals("redis")) {
                redis = NodeRedis.connect(o);
                ClusterSettings cluster = settings(o);
                builder.permits(redis.permits(store, cluster.lease().plus(cluster.heartbeat())));
            }
            AxEngine engine = builder.build();
            if (burst) {
                engine.register(AxTask.builder(BURST_TASK)
                        .concurrent(true)
                        .limits(burstLimits(o.get("limit", "none")))
                        .build());
            } else {
                CronTrigger everySecond = CronTrigger.of("* * * * * ?", ZoneOffset.UTC);
                int tasks = o.getInt("tasks", 10_000, 10_000);
                for (int i = 0; i < tasks; i++) {
                    engine.register(AxTask.builder(RECURRING_PREFIX + i)
                            .trigger(everySecond)
                            .build());
                }
            }
            engine.start();
            return new AxNode(engine, ds, counted, redis);
        } catch (RuntimeException e) {
            if (redis != null) {
                redis.close();
            }
            ds.close();
            throw e;
        }
    }

    /** A limit so high that no execution of a burst ever waits for it: what is measured is its cost. */
    private static final int NEVER_WAITS = 10_000;

    /** The burst task's own limits for {@code --limit} (the group's is its pool's). */
    private static TaskLimits burstLimits(String limit) {
        return switch (limit) {
            case "task" -> new TaskLimits(NEVER_WAITS, null);
            case "mutex" -> new TaskLimits(0, "${key}"); // each execution has a key, and so a mutex, of its own
            default -> TaskLimits.NONE;
        };
    }

    static ClusterSettings settings(Options o) {
        return new ClusterSettings(
                Duration.ofMillis(o.getInt("heartbeat-ms", 3_000, 3_000)),
                Duration.ofMillis(o.getInt("lease-ms", 10_000, 10_000)),
                Duration.ofMillis(o.getInt("ack-ms", 3_000, 3_000)),
                Duration.ofMillis(o.getInt("poll-ms", 50, 50)),
                o.getInt("virtual-nodes", 32, 32));
    }

    /** The id of the burst's execution number {@code i}: a UUID the handler can read the number back from. */
    static String burstId(int i) {
        return new UUID(BURST_ID_MARK, i).toString();
    }

    @Override
    public String view() {
        ClusterView v = engine.status().cluster();
        return String.format(
                Locale.ROOT,
                "leader=%s live=%d nodes=%s epoch=%d failovers=%d reassigned=%s owned=%d partitions=%d lag=%d"
                        + " clusterLag=%d repaired=%d",
                v.isLeader(),
                v.liveNodes().size(),
                String.join(",", new java.util.TreeSet<>(v.liveNodes())),
                v.epoch(),
                engine.status().failovers(),
                engine.status().reassigned().toString().replace(" ", ""),
                engine.status().partitions().map(p -> p.owned().size()).orElse(0),
                engine.status().partitions().map(p -> p.count()).orElse(0),
                engine.status().lag().toMillis(),
                engine.status().oldestDueAge().toMillis(),
                engine.status().repairedSeries());
    }

    @Override
    public String storeCalls() {
        return counted.drain();
    }

    @Override
    public void stop() {
        try {
            engine.stop();
        } finally {
            if (redis != null) {
                redis.close();
            }
            dataSource.close();
        }
    }

    /** The handler of every task: does nothing but report what ran, and when it was due. */
    private record NoOpExecutor(ExecutionLog log, boolean burst) implements AxExecutor {

        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            if (burst) {
                log.executed(UUID.fromString(context.instanceId()).getLeastSignificantBits(), null);
            } else {
                log.executed(
                        ExecutionLog.fireKey(ExecutionLog.number(task.name()), context.scheduledTime()),
                        context.scheduledTime());
            }
            return null;
        }
    }
}
