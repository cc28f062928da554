package io.ax.bench.cluster;

import io.ax.bench.Options;
import io.ax.bench.Scenario;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code cost} scenario's options (full / {@code --quick}): {@code --url} (required; also {@code --jdbc-url}),
 * {@code --jdbc-user} (postgres), {@code --jdbc-password} (empty), {@code --nodes} (1,3), {@code --systems}
 * (AX,db-scheduler / AX), {@code --workloads} (burst,recurring), {@code --tasks} burst executions (50,000 / 5,000)
 * after {@code --burst-warmup} executions that are not measured (20,000 / 5,000; 0 for none), {@code --idle-seconds}
 * of the idle window before each burst (20 / 5), {@code --rate} recurring tasks due every second (1,000), {@code
 * --seconds} of the measured recurring window (60 / 10) after {@code --warmup} seconds (20 / 12), {@code --threads}
 * per node (20), {@code --poll-ms} (50, as the cluster scenario), {@code --max-seconds} a burst may take (240 / 60),
 * {@code --node-heap} (384m), {@code --node-jvm-args} (none), {@code --log-dir} (a new temporary directory), {@code
 * --keep-tables} (false).
 */
record CostSettings(
        Options options,
        List<Integer> nodeCounts,
        List<String> systems,
        List<String> workloads,
        int burstTasks,
        int burstWarmup,
        int idleSeconds,
        int rate,
        int seconds,
        int warmup,
        int threads,
        int pollMs,
        int maxSeconds,
        String nodeHeap,
        boolean keepTables) {

    /** {@code application_name} of the node JVMs' connections: the scenario waits for them to close. */
    static final String NODE_APPLICATION = "ax-cost-node";
    /** {@code application_name} of the connections that write the burst (the application's side). */
    static final String WRITER_APPLICATION = "ax-cost-writer";
    /** {@code application_name} of the connection that reads the counters. */
    static final String PROBE_APPLICATION = "ax-cost-probe";

    static final String BURST = "burst";
    static final String RECURRING = "recurring";

    static CostSettings of(Options o) {
        String url = o.get("url", o.get("jdbc-url", ""));
        if (url.isBlank()) {
            throw new Scenario.Refused("--url=jdbc:postgresql://<host>:<port>/<database> is required: the scenario"
                    + " resets the server's pg_stat_statements, so give it a server (or at least a database) of its"
                    + " own, never one that others measure");
        }
        Map<String, String> settings = new HashMap<>(o.settings());
        settings.put("jdbc-url", url);
        Options withUrl = new Options(o.quick(), settings);
        List<Integer> nodes = Arrays.stream(o.get("nodes", "1,3").split(","))
                .map(String::strip)
                .map(Integer::parseInt)
                .toList();
        for (int n : nodes) {
            if (n < 1 || n > 9) {
                throw new IllegalArgumentException("--nodes takes counts from 1 to 9, was " + n);
            }
        }
        List<String> systems =
                List.of(o.get("systems", o.quick() ? "AX" : "AX,db-scheduler").split(","));
        for (String s : systems) {
            if (!s.equals(ClusterScenario.AX) && !s.equals(ClusterScenario.DBS)) {
                throw new IllegalArgumentException("--systems takes AX and db-scheduler, was '" + s + "'");
            }
        }
        List<String> workloads =
                List.of(o.get("workloads", BURST + "," + RECURRING).split(","));
        for (String w : workloads) {
            if (!w.equals(BURST) && !w.equals(RECURRING)) {
                throw new IllegalArgumentException("--workloads takes burst and recurring, was '" + w + "'");
            }
        }
        CostSettings s = new CostSettings(
                withUrl,
                nodes,
                systems,
                workloads,
                o.getInt("tasks", 50_000, 5_000),
                o.getInt("burst-warmup", 20_000, 5_000),
                o.getInt("idle-seconds", 20, 5),
                o.getInt("rate", 1_000, 1_000),
                o.getInt("seconds", 60, 10),
                o.getInt("warmup", 20, 12),
                o.getInt("threads", 20, 20),
                o.getInt("poll-ms", 50, 50),
                o.getInt("max-seconds", 240, 60),
                o.get("node-heap", "384m"),
                Boolean.parseBoolean(o.get("keep-tables", "false")));
        if (s.burstTasks < 1 || s.rate < 1 || s.seconds < 1 || s.idleSeconds < 1) {
            throw new IllegalArgumentException("--tasks, --rate, --seconds and --idle-seconds must be positive");
        }
        return s;
    }

    /** The options of the benchmark JVM's own pools (writing the burst, creating the tables), named apart. */
    Options applicationOptions() {
        return withApplicationName(WRITER_APPLICATION);
    }

    /** The options of the connection that reads the counters. */
    Options probeOptions() {
        return withApplicationName(PROBE_APPLICATION);
    }

    private Options withApplicationName(String name) {
        Map<String, String> settings = new HashMap<>(options.settings());
        settings.put("jdbc-url", withApplicationName(options.jdbcUrl(), name));
        return new Options(options.quick(), settings);
    }

    static String withApplicationName(String url, String name) {
        return url + (url.contains("?") ? "&" : "?") + "ApplicationName=" + name;
    }

    /** What every node is told, whatever its system and load. */
    List<String> nodeArgs() {
        List<String> args = new ArrayList<>();
        args.add("--jdbc-url=" + withApplicationName(options.jdbcUrl(), NODE_APPLICATION));
        args.add("--jdbc-user=" + options.jdbcUser());
        args.add("--jdbc-password=" + options.jdbcPassword());
        args.add("--threads=" + threads);
        args.add("--poll-ms=" + pollMs);
        args.add("--ax-info-log=" + options.get("ax-info-log", "false"));
        return args;
    }

    /** The node JVMs' flags: the heap, and any {@code --node-jvm-args} (space-separated). */
    List<String> jvmArgs() {
        return Settings.jvmArgs(options, nodeHeap);
    }
}
