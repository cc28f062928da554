package io.ax.test.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A real Redis Cluster of three primaries and no replicas, private processes on free ports of 127.0.0.1
 * ({@code --cluster-enabled yes}, joined by {@code redis-cli --cluster create}), without persistence, their files and
 * logs in a scratch folder under {@code target}. Skips the test without redis-server or redis-cli, or fails it under
 * {@code AX_TEST_SERVICES=required}. Not thread-safe: one test drives it.
 */
public final class RedisClusterSet implements AutoCloseable {

    private static final int PRIMARIES = 3;

    private final ServerProcesses processes;
    private final List<Integer> ports = new ArrayList<>();

    private RedisClusterSet(ServerProcesses processes) {
        this.processes = processes;
    }

    /** Starts three primaries, joins them into one cluster over the 16,384 slots and waits until it is ok. */
    public static RedisClusterSet start() {
        Path cli = cliProgram();
        RedisClusterSet set = new RedisClusterSet(ServerProcesses.in("redis-cluster"));
        try {
            set.startAll(cli);
        } catch (RuntimeException | Error e) {
            set.close();
            throw e;
        }
        return set;
    }

    private static Path cliProgram() {
        for (String candidate : new String[] {"/usr/bin/redis-cli", "/usr/local/bin/redis-cli"}) {
            Path p = Path.of(candidate);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        String message = "no redis-cli on this machine to create a Redis Cluster (apt-get install -y redis-tools)";
        if ("required".equalsIgnoreCase(System.getenv("AX_TEST_SERVICES"))) {
            throw new IllegalStateException(message + " and AX_TEST_SERVICES=required");
        }
        Assumptions.abort(message + "; set AX_TEST_SERVICES=required to make this a failure");
        return null;
    }

    private void startAll(Path cli) {
        for (int i = 0; i < PRIMARIES; i++) {
            int port = TestRedis.freePort();
            ports.add(port);
            processes.start(
                    port,
                    "node-" + port,
                    List.of(
                            "--port", Integer.toString(port),
                            "--bind", "127.0.0.1",
                            "--save", "",
                            "--appendonly", "no",
                            "--cluster-enabled", "yes",
                            "--cluster-config-file", "nodes-" + port + ".conf",
                            "--cluster-node-timeout", "2000"));
        }
        List<String> create = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
        ports.forEach(p -> create.add("127.0.0.1:" + p));
        create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        run(create);
        Awaitility.await("the cluster's state ok on every node")
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> ports.stream().allMatch(RedisClusterSet::ok));
    }

    private void run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command)
                    .directory(processes.dir().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(processes.dir().resolve("create.log").toFile())
                    .start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed; see " + processes.dir());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static boolean ok(int port) {
        LettuceConnectionFactory f = TestRedis.factory("127.0.0.1", port);
        try {
            Object info = new StringRedisTemplate(f).execute(c -> c.execute("CLUSTER", "INFO".getBytes()), true);
            String text = info instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(info);
            return text.contains("cluster_state:ok");
        } finally {
            f.destroy();
        }
    }

    /** The primaries' ports. */
    public List<Integer> ports() {
        return List.copyOf(ports);
    }

    /** The nodes as {@code spring.data.redis.cluster.nodes} lists them. */
    public String nodes() {
        return String.join(",", ports.stream().map(p -> "127.0.0.1:" + p).toList());
    }

    /** A started connection factory to the cluster, with {@link TestRedis#COMMAND_TIMEOUT}; the caller destroys it. */
    public LettuceConnectionFactory factory() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisClusterConfiguration(
                        ports.stream().map(p -> "127.0.0.1:" + p).toList()),
                LettuceClientConfiguration.builder()
                        .commandTimeout(TestRedis.COMMAND_TIMEOUT)
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /** Stops every node. */
    @Override
    public void close() {
        processes.close();
    }
}
