package io.ax.bench.cluster;

import io.ax.bench.Options;
import io.ax.bench.db.RedisConnections;
import io.ax.core.store.Permits;
import io.ax.jdbc.JdbcInstanceStore;
import io.ax.redis.AxRedis;
import java.time.Duration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A node's Redis, wired as AX's Redis auto-configuration wires it: a Lettuce connection factory ({@code
 * --redis-host}, {@code --redis-port}, 127.0.0.1:6379 by default, command timeout 2 s) and one {@link AxRedis} on it,
 * every key and channel under {@code --redis-prefix} ({@code axbench:}). Closed by the node after its engine.
 */
final class NodeRedis implements AutoCloseable {

    private final LettuceConnectionFactory factory;
    private final AxRedis redis;

    private NodeRedis(LettuceConnectionFactory factory, AxRedis redis) {
        this.factory = factory;
        this.redis = redis;
    }

    static NodeRedis connect(Options o) {
        LettuceConnectionFactory factory = RedisConnections.factory(o);
        try {
            return new NodeRedis(factory, new AxRedis(factory, prefix(o), Duration.ofSeconds(3)));
        } catch (RuntimeException e) {
            factory.destroy();
            throw e;
        }
    }

    static String prefix(Options o) {
        return o.get("redis-prefix", "axbench:");
    }

    /** The permits of cluster-wide limits on Redis, held by {@code store}'s rule, as {@link AxRedis#permits}. */
    Permits permits(JdbcInstanceStore store, Duration quarantine) {
        return redis.permits(store, store.permits().orElseThrow(), quarantine);
    }

    @Override
    public void close() {
        redis.close();
        factory.destroy();
    }
}
