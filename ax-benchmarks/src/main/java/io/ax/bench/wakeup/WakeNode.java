package io.ax.bench.wakeup;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.db.RedisConnections;
import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.PartitionTerms;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.AxEngineBuilder;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.redis.AxRedis;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One node of a round: an {@link AxEngine} on a JDBC store of its own, with a pool of its own, over the round's
 * tables, in this JVM. Its ownership is the engine's default (partitioned). Its one task, {@link #TASK}, is a
 * concurrent no-op whose handler reports its start to the round's {@link RunLog} before anything else. Its wake-ups
 * are the round's kind: the store's own ({@code LISTEN/NOTIFY} on PostgreSQL), Redis pub/sub over the store's own (as
 * the auto-configuration wires them) or none. Not thread-safe: the round starts and closes it.
 */
final class WakeNode implements AutoCloseable {

    static final String TASK = "wake";
    /** Enough for the engine's writers, its claims and, on PostgreSQL, the connection {@code LISTEN} holds. */
    private static final int CONNECTIONS = 6;

    private final String id;
    private final AxEngine engine;
    private final HikariDataSource pool;
    private final LettuceConnectionFactory redisFactory;
    private final AxRedis redis;

    private WakeNode(
            String id, AxEngine engine, HikariDataSource pool, LettuceConnectionFactory redisFactory, AxRedis redis) {
        this.id = id;
        this.engine = engine;
        this.pool = pool;
        this.redisFactory = redisFactory;
        this.redis = redis;
    }

    /** Builds the node and starts its engine; closes what it opened if that fails. */
    static WakeNode start(
            WakeUpSettings s, WakeUpSettings.Round round, String id, ClusterSettings cluster, RunLog log) {
        HikariDataSource pool = round.database().pool(s.options(), "wakeup-" + id, CONNECTIONS);
        LettuceConnectionFactory factory = null;
        AxRedis redis = null;
        try {
            JdbcInstanceStore store = new JdbcInstanceStore(pool, round.tablePrefix());
            AxEngineBuilder builder = AxEngine.builder()
                    .store(store)
                    .nodeId(id)
                    .clusterSettings(cluster)
                    .router(new ExecutorRouter(List.of(new Handler(log))))
                    .defaultPool(new PoolSettings(8, 1_000))
                    .shutdownAwait(Duration.ofSeconds(2));
            switch (round.kind()) {
                case NOTIFY -> {} // the engine takes the store's own
                case POLL -> builder.wakeUps(WakeUps.none());
                case REDIS -> {
                    factory = RedisConnections.factory(s.options());
                    redis = new AxRedis(
                            factory, s.redisPrefix() + round.database().option + ":", Duration.ofSeconds(1));
                    builder.wakeUps(redis.wakeUps(store.wakeUps()));
                }
            }
            AxEngine engine = builder.build();
            engine.register(AxTask.builder(TASK).concurrent(true).build());
            engine.start();
            return new WakeNode(id, engine, pool, factory, redis);
        } catch (RuntimeException e) {
            closeRedis(redis, factory);
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

    /** How many partitions this node owns and may decide for now; 0 while it may not decide. */
    int decided() {
        PartitionTerms terms = engine.status().partitions().orElse(null);
        return terms == null || !terms.decides() ? 0 : terms.owned().size();
    }

    int partitionCount() {
        return engine.status().partitions().map(PartitionTerms::count).orElse(0);
    }

    /** Whether this node's Redis answers; true without Redis. */
    boolean redisUp() {
        return redis == null || redis.status().up();
    }

    /**
     * How many connections are subscribed to the nodes' wake-up channel ({@code PUBSUB NUMSUB}); -1 without Redis.
     */
    long redisListeners(String channel) {
        if (redisFactory == null) {
            return -1;
        }
        try (RedisConnection c = redisFactory.getConnection()) {
            // Lettuce's own command: Spring's generic execute cannot read NUMSUB's mixed reply
            var lettuce = (io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands<byte[], byte[]>)
                    c.getNativeConnection();
            byte[] name = channel.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            Map<byte[], Long> counts = lettuce.pubsubNumsub(name).get(2, TimeUnit.SECONDS);
            return counts.values().stream().mapToLong(Long::longValue).sum();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The Redis server's version; null without Redis. */
    String redisVersion() {
        if (redisFactory == null) {
            return null;
        }
        try (RedisConnection c = redisFactory.getConnection()) {
            java.util.Properties info = c.serverCommands().info("server");
            return info == null ? "?" : info.getProperty("redis_version", "?");
        }
    }

    @Override
    public void close() {
        try {
            engine.stop(); // closes its wake-ups
        } finally {
            closeRedis(redis, redisFactory);
            pool.close();
        }
    }

    private static void closeRedis(AxRedis redis, LettuceConnectionFactory factory) {
        if (redis != null) {
            redis.close();
        }
        if (factory != null) {
            factory.destroy();
        }
    }

    /** The task's handler: notes its start, with the node it runs on, and does nothing else. */
    private record Handler(RunLog log) implements AxExecutor {

        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            log.started(context.instanceId(), context.nodeId(), System.nanoTime());
            return null;
        }
    }
}
