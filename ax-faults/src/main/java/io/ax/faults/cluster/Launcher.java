package io.ax.faults.cluster;

import io.ax.faults.db.RunDatabase;
import io.ax.test.redis.RedisSentinelSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.GeneratedKeyHolder;

/**
 * Starts node processes: the sample's executable jar with the profiles of the fault workload, the node's own proxies,
 * its clock, a free HTTP port and a log file of its own, and records each process in {@code faults_process} (its
 * start, and its exit as soon as it is seen) so that the checker knows when a run that never recorded its end
 * stopped at the latest. Thread-safe.
 */
final class Launcher {

    private final NodeSettings settings;
    private final RunDatabase db;
    private final Path libfaketime;
    private final Executor exits;
    private final AtomicInteger started = new AtomicInteger();

    /** @param exits where the exit of each process is recorded (a named thread) */
    Launcher(NodeSettings settings, RunDatabase db, Path libfaketime, Executor exits) {
        this.settings = settings;
        this.db = db;
        this.libfaketime = libfaketime;
        this.exits = exits;
    }

    boolean fakesClocks() {
        return libfaketime != null;
    }

    /**
     * @param exitHow asked once the process has exited: how it was ended (what the runner did to it, or null when
     *     it exited by itself)
     */
    NodeProcess launch(
            String node, List<Integer> dbProxies, Integer redisProxy, NodeClock clock, Supplier<String> exitHow) {
        int port = freePort();
        Path log = settings.workDir().resolve(node + "-" + started.incrementAndGet() + ".log");
        List<String> command = new ArrayList<>(List.of(
                settings.java().toString(),
                "-Xmx" + settings.heap(),
                // C1 only and the serial collector: a quicker start and less CPU on a two-core machine
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Duser.timezone=UTC",
                "-jar",
                settings.sampleJar().toAbsolutePath().toString(),
                "--spring.profiles.active=postgres,no-demo-tasks,faults"
                        + (redisProxy != null || !settings.sentinelNodes().isEmpty() ? ",faults-redis" : ""),
                "--spring.datasource.url=" + settings.proxiedUrl(dbProxies),
                "--spring.datasource.username=" + settings.pgUser(),
                "--spring.datasource.password=" + settings.pgPassword(),
                "--faults.record.url=" + settings.directUrl(),
                "--faults.record.username=" + settings.pgUser(),
                "--faults.record.password=" + settings.pgPassword(),
                "--ax.node-id=" + node,
                "--server.port=" + port,
                "--ax.cluster.heartbeat=" + settings.heartbeat().toMillis() + "ms",
                "--ax.cluster.lease=" + settings.lease().toMillis() + "ms",
                "--ax.cluster.ack-timeout=" + settings.ackTimeout().toMillis() + "ms",
                "--ax.misfire.threshold=" + settings.misfire().toMillis() + "ms",
                // one folder for the whole cluster, as the nodes of one host share it: a failover just after a
                // node's stop is named by a node that runs on
                "--ax.shutdown.recent-commits-dir="
                        + settings.workDir().resolve("recent-commits").toAbsolutePath()));
        if (redisProxy != null) {
            command.add("--spring.data.redis.port=" + redisProxy);
            command.add("--ax.redis.permits=" + settings.redisPermits());
        } else if (!settings.sentinelNodes().isEmpty()) {
            command.add("--spring.data.redis.sentinel.master=" + RedisSentinelSet.MASTER);
            command.add("--spring.data.redis.sentinel.nodes=" + settings.sentinelNodes());
            command.add("--ax.redis.permits=" + settings.redisPermits());
        }
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .directory(settings.workDir().toFile());
        clock.apply(builder.environment(), libfaketime);
        Process process;
        try {
            Files.createDirectories(settings.workDir());
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start node " + node + " with " + settings.java(), e);
        }
        long row = recordStart(node, process.pid(), clock);
        process.onExit().thenRunAsync(() -> recordExit(row, exitHow.get(), process), exits);
        return new NodeProcess(process, port);
    }

    private long recordStart(String node, long pid, NodeClock clock) {
        GeneratedKeyHolder key = new GeneratedKeyHolder();
        db.jdbc()
                .update(
                        c -> {
                            var s = c.prepareStatement(
                                    "INSERT INTO faults_process (node, pid, clock) VALUES (?, ?, ?)",
                                    new String[] {"id"});
                            s.setString(1, node);
                            s.setLong(2, pid);
                            s.setString(3, clock.toString());
                            return s;
                        },
                        key);
        return key.getKey().longValue();
    }

    private void recordExit(long row, String how, Process process) {
        JdbcTemplate jdbc = db.jdbc();
        String exit = how != null ? how : "exited by itself with status " + process.exitValue();
        jdbc.update("UPDATE faults_process SET exited_at = clock_timestamp(), exit_how = ? WHERE id = ?", exit, row);
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }
}
