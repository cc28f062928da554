package io.ax.bench.cluster;

import io.ax.bench.Options;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The {@code ack} scenario's options (full / {@code --quick}): {@code --kinds} (redis,postgres,poll), {@code --nodes}
 * (3), {@code --fires} a second (300), {@code --seconds} per round (100 / 30) of which {@code --warmup} (20 / 8) are
 * left out, {@code --threads} per node (20), {@code --poll-ms} (500, AX's default), {@code --node-heap} (384m),
 * {@code --node-jvm-args} (none), {@code --redis-host} (127.0.0.1), {@code --redis-port} (6379), {@code
 * --redis-prefix} (axbench:ack:), {@code --log-dir} (a new temporary directory), {@code --keep-tables} (false).
 */
record AckSettings(
        Options options,
        List<Kind> kinds,
        int nodes,
        int fires,
        int seconds,
        int warmup,
        int threads,
        int pollMs,
        String nodeHeap,
        String redisPrefix,
        boolean keepTables) {

    /** The wake-ups between the nodes in a round. */
    enum Kind {
        REDIS("redis", "Redis pub/sub", "redis"),
        POSTGRES("postgres", "PostgreSQL LISTEN/NOTIFY", "store"),
        POLL("poll", "polling only", "none");

        /** The name {@code --kinds} takes. */
        final String option;
        /** The column. */
        final String column;
        /** What a node is told ({@code --wake-ups}). */
        final String nodeWakeUps;

        Kind(String option, String column, String nodeWakeUps) {
            this.option = option;
            this.column = column;
            this.nodeWakeUps = nodeWakeUps;
        }

        static Kind of(String option) {
            for (Kind k : values()) {
                if (k.option.equals(option.strip().toLowerCase(Locale.ROOT))) {
                    return k;
                }
            }
            throw new IllegalArgumentException("--kinds takes redis, postgres and poll, was '" + option + "'");
        }
    }

    static AckSettings of(Options o) {
        List<Kind> kinds = Arrays.stream(o.get("kinds", "redis,postgres,poll").split(","))
                .map(Kind::of)
                .distinct()
                .toList();
        AckSettings s = new AckSettings(
                o,
                kinds,
                o.getInt("nodes", 3, 3),
                o.getInt("fires", 300, 300),
                o.getInt("seconds", 100, 30),
                o.getInt("warmup", 20, 8),
                o.getInt("threads", 20, 20),
                o.getInt("poll-ms", 500, 500),
                o.get("node-heap", "384m"),
                o.get("redis-prefix", "axbench:ack:"),
                Boolean.parseBoolean(o.get("keep-tables", "false")));
        if (s.nodes < 2 || s.nodes > 9) {
            throw new IllegalArgumentException(
                    "--nodes takes 2 to 9 (acknowledgements need a node that does not" + " lead), was " + s.nodes);
        }
        if (s.fires < 1) {
            throw new IllegalArgumentException("--fires must be positive, was " + s.fires);
        }
        if (s.warmup >= s.seconds) {
            throw new IllegalArgumentException("--warmup must be shorter than --seconds");
        }
        return s;
    }

    /** What every node of a round of {@code kind} is told, besides its system's schema and prefix. */
    List<String> nodeArgs(Kind kind) {
        List<String> args = new ArrayList<>();
        args.add("--jdbc-url=" + options.jdbcUrl());
        args.add("--jdbc-user=" + options.jdbcUser());
        args.add("--jdbc-password=" + options.jdbcPassword());
        args.add("--threads=" + threads);
        args.add("--poll-ms=" + pollMs);
        args.add("--ax-info-log=" + options.get("ax-info-log", "false"));
        args.add("--load=spread");
        args.add("--tasks=" + fires);
        args.add("--wake-ups=" + kind.nodeWakeUps);
        if (kind == Kind.REDIS) {
            args.add("--redis-host=" + options.get("redis-host", "127.0.0.1"));
            args.add("--redis-port=" + options.get("redis-port", "6379"));
            args.add("--redis-prefix=" + redisPrefix);
        }
        return args;
    }

    /** The node JVMs' flags: the heap, and any {@code --node-jvm-args} (space-separated). */
    List<String> jvmArgs() {
        List<String> args = new ArrayList<>(List.of("-Xmx" + nodeHeap));
        String extra = options.get("node-jvm-args", "").strip();
        if (!extra.isEmpty()) {
            args.addAll(List.of(extra.split(" +")));
        }
        return args;
    }
}
