package io.ax.bench.cluster;

import io.ax.bench.Options;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The scenario's options, read once (full / {@code --quick}): {@code --nodes} (1,2,3), {@code --tasks} burst
 * executions (100,000 / 20,000) after {@code --burst-warmup} executions that are not timed (50,000 / 20,000; 0 for
 * none), {@code --work-ms} each burst execution's handler works, sleeping (0: a no-op), {@code --recurring-tasks} (10,000), {@code --seconds} per recurring round (60 / 15)
 * of which {@code --warmup} (5 / 3) are left out, {@code --threads} per node (20), {@code --max-seconds} per burst
 * (240 / 60), {@code --kills} of the leader (10 / 3), {@code --failover-tasks} firing every second meanwhile (100),
 * {@code --poll-ms} (50), {@code --failover-heartbeat-ms} (300), {@code --failover-lease-ms} (1,500),
 * {@code --failover-ack-ms} (1,000), {@code --partition-kills} of a node while partitions are timed (10 / 4),
 * {@code --partition-tasks} firing every second meanwhile (100), {@code --partition-heartbeat-ms} (500), {@code
 * --partition-lease-ms} (2,500), {@code --node-heap} (384m), {@code --node-jvm-args} (none), {@code --parts}
 * (burst,recurring,failover,partitions),
 * {@code --systems} (AX,db-scheduler), {@code --log-dir} (a new temporary directory), {@code --keep-tables} (false),
 * {@code --burst-wake-ups} (true: the burst's writer wakes AX's nodes once it is written, as an AX node's {@code
 * scheduleAll} does; false: they find it with their sweep for overdue rows), {@code --limit} on AX's burst task
 * (none: no limit; task: {@code maxConcurrent} of 10,000; group: the pool's {@code cluster-limit} of 10,000; mutex:
 * {@code mutex = "${key}"}, each execution written with a key of its own): what a cluster-wide limit costs per
 * execution, set so high (or so fine) that it never makes an execution wait; {@code --permits} where AX keeps a
 * limit's permits (store: its database, the default; redis: the local Redis, {@code ax.redis.permits=true}).
 */
record Settings(
        Options options,
        List<Integer> nodeCounts,
        int burstTasks,
        int burstWarmup,
        int workMs,
        int recurringTasks,
        int seconds,
        int warmup,
        int threads,
        int maxSeconds,
        int kills,
        int failoverTasks,
        int pollMs,
        int failoverHeartbeatMs,
        int failoverLeaseMs,
        int failoverAckMs,
        int partitionKills,
        int partitionTasks,
        int partitionHeartbeatMs,
        int partitionLeaseMs,
        String nodeHeap,
        List<String> parts,
        List<String> systems,
        boolean keepTables,
        boolean burstWakeUps,
        String limit,
        String permits) {

    /** The values {@code --limit} takes. */
    static final List<String> LIMITS = List.of("none", "task", "group", "mutex");

    /** How long a round waits for its nodes to form one cluster. */
    static final Duration JOIN = Duration.ofSeconds(60);

    static Settings of(Options o) {
        List<Integer> nodes = Arrays.stream(o.get("nodes", "1,2,3").split(","))
                .map(String::strip)
                .map(Integer::parseInt)
                .toList();
        for (int n : nodes) {
            if (n < 1 || n > 9) {
                throw new IllegalArgumentException("--nodes takes counts from 1 to 9, was " + n);
            }
        }
        Settings s = new Settings(
                o,
                nodes,
                o.getInt("tasks", 100_000, 20_000),
                o.getInt("burst-warmup", 50_000, 20_000),
                o.getInt("work-ms", 0, 0),
                o.getInt("recurring-tasks", 10_000, 10_000),
                o.getInt("seconds", 60, 15),
                o.getInt("warmup", 5, 3),
                o.getInt("threads", 20, 20),
                o.getInt("max-seconds", 240, 60),
                o.getInt("kills", 10, 3),
                o.getInt("failover-tasks", 100, 100),
                o.getInt("poll-ms", 50, 50),
                o.getInt("failover-heartbeat-ms", 300, 300),
                o.getInt("failover-lease-ms", 1_500, 1_500),
                o.getInt("failover-ack-ms", 1_000, 1_000),
                o.getInt("partition-kills", 10, 4),
                o.getInt("partition-tasks", 100, 100),
                o.getInt("partition-heartbeat-ms", 500, 500),
                o.getInt("partition-lease-ms", 2_500, 2_500),
                o.get("node-heap", "384m"),
                List.of(o.get("parts", "burst,recurring,failover,partitions").split(",")),
                List.of(o.get("systems", "AX,db-scheduler").split(",")),
                Boolean.parseBoolean(o.get("keep-tables", "false")),
                Boolean.parseBoolean(o.get("burst-wake-ups", "true")),
                o.get("limit", "none"),
                o.get("permits", "store"));
        if (!List.of("store", "redis").contains(s.permits)) {
            throw new IllegalArgumentException("--permits takes store or redis, was " + s.permits);
        }
        if (!LIMITS.contains(s.limit)) {
            throw new IllegalArgumentException("--limit takes one of " + LIMITS + ", was " + s.limit);
        }
        if (s.warmup >= s.seconds) {
            throw new IllegalArgumentException("--warmup must be shorter than --seconds");
        }
        return s;
    }

    /** What every node is told, whatever its system and load. */
    List<String> nodeArgs() {
        List<String> args = new ArrayList<>();
        args.add("--jdbc-url=" + options.jdbcUrl());
        args.add("--jdbc-user=" + options.jdbcUser());
        args.add("--jdbc-password=" + options.jdbcPassword());
        args.add("--threads=" + threads);
        args.add("--poll-ms=" + pollMs);
        args.add("--work-ms=" + workMs);
        args.add("--limit=" + limit);
        args.add("--permits=" + permits);
        args.add("--ax-info-log=" + options.get("ax-info-log", "false"));
        return args;
    }

    /** The node JVMs' flags: the heap, and any {@code --node-jvm-args} (space-separated, e.g. GC logging). */
    List<String> jvmArgs() {
        return jvmArgs(options, nodeHeap);
    }

    /** A node JVM's flags for any scenario that starts nodes: {@code -Xmx} and any {@code --node-jvm-args}. */
    static List<String> jvmArgs(Options options, String nodeHeap) {
        List<String> args = new ArrayList<>(List.of("-Xmx" + nodeHeap));
        String extra = options.get("node-jvm-args", "").strip();
        if (!extra.isEmpty()) {
            args.addAll(List.of(extra.split(" +")));
        }
        return args;
    }

    /** Node ids of a round: {@code ax-1}, {@code ax-2} ... or {@code dbs-1} ... */
    static List<String> ids(ClusterSystem system, String suffix, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            ids.add((system instanceof AxCluster ? "ax-" : "dbs-") + i + suffix);
        }
        return ids;
    }

    static String slug(String systemName) {
        return systemName.toLowerCase(Locale.ROOT).replace(' ', '-');
    }
}
