package io.ax.bench.db;

import io.ax.bench.Options;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Connections to the Redis the scenarios share ({@code --redis-host}, {@code --redis-port}; the local one). */
public final class RedisConnections {

    private RedisConnections() {}

    /** A started connection factory to the Redis the options name; the caller destroys it. */
    public static LettuceConnectionFactory factory(Options o) {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(
                o.get("redis-host", "127.0.0.1"), Integer.parseInt(o.get("redis-port", "6379")));
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                server,
                LettuceClientConfiguration.builder()
                        .commandTimeout(Duration.ofSeconds(2))
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
