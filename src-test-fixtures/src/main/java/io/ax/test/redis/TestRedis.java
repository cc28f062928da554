package io.ax.test.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Redis the Redis suites run against: the machine's ({@code 127.0.0.1:6379}, see DEVELOPERS.md; override with
 * {@code AX_TEST_REDIS_HOST} and {@code AX_TEST_REDIS_PORT}). Where it does not answer its tests are skipped, saying
 * why; with {@code AX_TEST_SERVICES=required} (what CI sets) they fail instead. Tests on it keep to keys of a random
 * prefix of their own ({@link #randomPrefix}) and delete them afterwards ({@link #deleteKeys}).
 */
public final class TestRedis {

    /** Commands wait at most this long: a test that stops Redis sees the failure soon. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

    private static final String HOST = env("AX_TEST_REDIS_HOST", "127.0.0.1");
    private static final int PORT = Integer.parseInt(env("AX_TEST_REDIS_PORT", "6379"));

    private TestRedis() {}

    /**
     * A started connection factory to the machine's Redis, after making sure it answers; the caller destroys it.
     * Skips the calling test when it does not answer, or fails it when services are required.
     */
    public static LettuceConnectionFactory shared() {
        LettuceConnectionFactory factory = factory(HOST, PORT);
        try {
            reachable(factory);
        } catch (RuntimeException e) {
            factory.destroy();
            String message = "Redis at " + HOST + ":" + PORT + " is not reachable (" + e.getMessage() + ")";
            if ("required".equalsIgnoreCase(System.getenv("AX_TEST_SERVICES"))) {
                throw new IllegalStateException(message + " and AX_TEST_SERVICES=required", e);
            }
            Assumptions.abort(message + "; set AX_TEST_SERVICES=required to make this a failure");
        }
        return factory;
    }

    /** The host of the machine's Redis the tests use. */
    public static String host() {
        return HOST;
    }

    /** The port of the machine's Redis the tests use. */
    public static int port() {
        return PORT;
    }

    /**
     * Pings through {@code factory}, a second time when the first fails: a JVM's first connection (its client's threads
     * and classes made while a busy machine's other tests run) may take longer than one command's timeout.
     */
    private static void reachable(LettuceConnectionFactory factory) {
        try {
            new StringRedisTemplate(factory).execute(c -> c.ping(), true);
        } catch (RuntimeException first) {
            new StringRedisTemplate(factory).execute(c -> c.ping(), true);
        }
    }

    /** A started connection factory to {@code host:port}, with {@link #COMMAND_TIMEOUT}; the caller destroys it. */
    public static LettuceConnectionFactory factory(String host, int port) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(host, port),
                LettuceClientConfiguration.builder()
                        .commandTimeout(COMMAND_TIMEOUT)
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /** A key prefix no other run uses: {@code axtest-<suite>:<random>:}. */
    public static String randomPrefix(String suite) {
        return "axtest-" + suite + ":" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }

    /** Deletes every key under {@code prefix}; a prefix is never blank. */
    public static void deleteKeys(LettuceConnectionFactory factory, String prefix) {
        if (prefix == null || prefix.isBlank()) {
            throw new IllegalArgumentException("a prefix to delete under must not be blank");
        }
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        List<String> keys = new ArrayList<>();
        try (Cursor<String> cursor = redis.scan(
                ScanOptions.scanOptions().match(prefix + "*").count(1000).build())) {
            cursor.forEachRemaining(keys::add);
        }
        if (!keys.isEmpty()) {
            redis.delete(keys);
        }
    }

    /** The redis-server program private servers are started from; null when the machine has none. */
    static Path serverProgram() {
        for (String candidate : new String[] {"/usr/bin/redis-server", "/usr/local/bin/redis-server"}) {
            Path p = Path.of(candidate);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
