package io.ax.test.redis;

import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.awaitility.Awaitility;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A real Redis Sentinel set of private processes on free ports of 127.0.0.1: one primary, one replica and three
 * sentinels ({@code redis-server sentinel.conf --sentinel}, quorum 2), without persistence, their files and logs in a
 * scratch folder under {@code target}. A test makes the replica miss writes ({@link #detachReplica}: {@code SIGSTOP}
 * it, then {@code CLIENT KILL TYPE replica} on the primary), kills the primary ({@link #killPrimary}), lets the
 * replica go on ({@link #resumeReplica}) and waits for the sentinels to promote it ({@link #awaitPromoted}). Skips the
 * test without redis-server, or fails it under {@code AX_TEST_SERVICES=required}. Not thread-safe: one test drives it.
 */
public final class RedisSentinelSet implements AutoCloseable {

    /** The name the sentinels monitor the primary under ({@code spring.data.redis.sentinel.master}). */
    public static final String MASTER = "ax-primary";

    private final ServerProcesses processes;
    private final Duration downAfter;
    private final int primaryPort;
    private final int replicaPort;
    private final List<Integer> sentinelPorts = new ArrayList<>();
    private final RedisClient client = RedisClient.create();
    private Process primary;
    private Process replica;

    private RedisSentinelSet(ServerProcesses processes, Duration downAfter) {
        this.processes = processes;
        this.downAfter = downAfter;
        this.primaryPort = TestRedis.freePort();
        this.replicaPort = TestRedis.freePort();
    }

    /**
     * Starts the set and waits until the replica is in sync and every sentinel knows the replica and the other two.
     *
     * @param downAfter the sentinels' {@code down-after-milliseconds}: how long the primary does not answer before it
     *     is taken for down
     */
    public static RedisSentinelSet start(Duration downAfter) {
        RedisSentinelSet set = new RedisSentinelSet(ServerProcesses.in("redis-sentinel"), downAfter);
        try {
            set.startAll();
        } catch (RuntimeException | Error e) {
            set.close();
            throw e;
        }
        return set;
    }

    private void startAll() {
        primary = processes.start(primaryPort, "primary", server(primaryPort));
        List<String> replicaArgs = new ArrayList<>(server(replicaPort));
        replicaArgs.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(primaryPort)));
        replica = processes.start(replicaPort, "replica", replicaArgs);
        for (int i = 0; i < 3; i++) {
            int port = TestRedis.freePort();
            sentinelPorts.add(port);
            String conf = "sentinel-" + i + ".conf";
            processes.write(
                    conf,
                    List.of(
                            "port " + port,
                            "bind 127.0.0.1",
                            "daemonize no",
                            "dir " + processes.dir(),
                            "sentinel monitor " + MASTER + " 127.0.0.1 " + primaryPort + " 2",
                            "sentinel down-after-milliseconds " + MASTER + " " + downAfter.toMillis(),
                            "sentinel failover-timeout " + MASTER + " " + Math.max(2_000, downAfter.toMillis() * 3),
                            "sentinel parallel-syncs " + MASTER + " 1"));
            processes.start(port, "sentinel-" + i, List.of(conf, "--sentinel"));
        }
        Awaitility.await("the replica in sync and the sentinels knowing each other and the replica")
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(this::settled);
    }

    private static List<String> server(int port) {
        return List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no");
    }

    private boolean settled() {
        if (!"up".equals(info(replicaPort).getProperty("master_link_status"))) {
            return false;
        }
        for (int port : sentinelPorts) {
            try (StatefulRedisSentinelConnection<String, String> s = sentinel(port)) {
                Map<String, String> master = s.sync().master(MASTER);
                if (!"1".equals(master.get("num-slaves")) || !"2".equals(master.get("num-other-sentinels"))) {
                    return false;
                }
            }
        }
        return true;
    }

    private StatefulRedisSentinelConnection<String, String> sentinel(int port) {
        return client.connectSentinel(RedisURI.create("127.0.0.1", port));
    }

    /** The sentinels' {@code down-after-milliseconds}. */
    public Duration downAfter() {
        return downAfter;
    }

    public int primaryPort() {
        return primaryPort;
    }

    public int replicaPort() {
        return replicaPort;
    }

    public List<Integer> sentinelPorts() {
        return List.copyOf(sentinelPorts);
    }

    /** The sentinels as {@code spring.data.redis.sentinel.nodes} lists them. */
    public String sentinelNodes() {
        return String.join(
                ",", sentinelPorts.stream().map(p -> "127.0.0.1:" + p).toList());
    }

    /**
     * A started connection factory that finds the primary through the sentinels, with {@link
     * TestRedis#COMMAND_TIMEOUT}; the caller destroys it.
     */
    public LettuceConnectionFactory factory() {
        RedisSentinelConfiguration sentinels = new RedisSentinelConfiguration().master(MASTER);
        sentinelPorts.forEach(p -> sentinels.sentinel("127.0.0.1", p));
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                sentinels,
                LettuceClientConfiguration.builder()
                        .commandTimeout(TestRedis.COMMAND_TIMEOUT)
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /** Waits until the replica has every write the primary has: its acknowledged offset is the primary's. */
    public void awaitReplicated() {
        Awaitility.await("the replica acknowledging every write of the primary")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    Properties p = info(primaryPort);
                    String slave = p.getProperty("slave0", "");
                    return slave.contains("offset=" + p.getProperty("master_repl_offset") + ",");
                });
    }

    /**
     * The replica misses every write from now on: it is stopped ({@code SIGSTOP}) and the primary drops its
     * connection, so the primary has no replica to wait for and writes on alone.
     */
    public void detachReplica() {
        ServerProcesses.signal(replica, "STOP");
        try (StatefulRedisConnection<String, String> c = client.connect(RedisURI.create("127.0.0.1", primaryPort))) {
            c.sync().clientKill(KillArgs.Builder.typeSlave());
        }
        Awaitility.await("the primary without a replica")
                .atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> "0".equals(info(primaryPort).getProperty("connected_slaves")));
    }

    /** Kills the primary at once ({@code SIGKILL}), as a crash would. */
    public void killPrimary() {
        ServerProcesses.kill(primary);
    }

    /** Lets the stopped replica go on ({@code SIGCONT}). */
    public void resumeReplica() {
        ServerProcesses.signal(replica, "CONT");
    }

    /** Waits until a sentinel names the replica as the primary, and the replica says it is one. */
    public void awaitPromoted(Duration atMost) {
        Awaitility.await("the sentinels promoting the replica")
                .atMost(atMost)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    try (StatefulRedisSentinelConnection<String, String> s = sentinel(sentinelPorts.get(0))) {
                        SocketAddress at = s.sync().getMasterAddrByName(MASTER);
                        return at instanceof InetSocketAddress a
                                && a.getPort() == replicaPort
                                && "master".equals(info(replicaPort).getProperty("role"));
                    }
                });
    }

    /** The {@code INFO replication} of the server on {@code port}. */
    public Properties info(int port) {
        return onNode(port, r -> r.execute(c -> c.serverCommands().info("replication"), true));
    }

    private static <T> T onNode(int port, java.util.function.Function<StringRedisTemplate, T> call) {
        LettuceConnectionFactory f = TestRedis.factory("127.0.0.1", port);
        try {
            return call.apply(new StringRedisTemplate(f));
        } finally {
            f.destroy();
        }
    }

    /** Stops every process of the set (a stopped replica too) and the sentinels' client. */
    @Override
    public void close() {
        try {
            processes.close();
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
