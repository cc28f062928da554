package io.ax.bench.wakeup;

import io.ax.bench.Options;
import io.ax.core.cluster.ClusterSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code wakeup} scenario's options: {@code --databases} (postgres,mariadb,h2), {@code --kinds}
 * (notify,redis,poll; a database runs those it has), {@code --nodes} (2), {@code --rate} of instances scheduled a
 * second (20), {@code --seconds} measured per round (30) after {@code --warmup} seconds left out (5), {@code
 * --poll-ms} (500, AX's default {@code ax.cluster.poll-interval}), {@code --redis-host} (127.0.0.1), {@code
 * --redis-port} (6379), {@code --redis-prefix} (axbench:wakeup:), {@code --keep-tables} (false); the databases'
 * connections: see {@link Database}. {@code --quick} measures 10 s a round after 3.
 */
record WakeUpSettings(
        Options options,
        List<Database> databases,
        List<Kind> kinds,
        int nodes,
        int rate,
        int seconds,
        int warmup,
        int pollMs,
        String redisPrefix,
        boolean keepTables) {

    /** Heartbeat and lease short enough that a second node takes its half of the partitions within a few seconds. */
    static final Duration HEARTBEAT = Duration.ofMillis(500);

    WakeUpSettings {
        databases = List.copyOf(databases);
        kinds = List.copyOf(kinds);
        if (nodes < 2 || nodes > 8) {
            throw new IllegalArgumentException("--nodes takes 2 to 8 (a wake-up needs another node), was " + nodes);
        }
        if (rate < 1 || rate > 1_000) {
            throw new IllegalArgumentException("--rate takes 1 to 1000 instances a second, was " + rate);
        }
        if (seconds < 1 || warmup < 0) {
            throw new IllegalArgumentException(
                    "--seconds must be positive and --warmup not negative, were " + seconds + " and " + warmup);
        }
        if (pollMs < 10 || pollMs > 60_000) {
            throw new IllegalArgumentException("--poll-ms takes 10 to 60000, was " + pollMs);
        }
    }

    static WakeUpSettings of(Options o) {
        return new WakeUpSettings(
                o,
                Arrays.stream(o.get("databases", "postgres,mariadb,h2").split(","))
                        .map(Database::of)
                        .distinct()
                        .toList(),
                Arrays.stream(o.get("kinds", "notify,redis,poll").split(","))
                        .map(Kind::of)
                        .distinct()
                        .toList(),
                o.getInt("nodes", 2, 2),
                o.getInt("rate", 20, 20),
                o.getInt("seconds", 30, 10),
                o.getInt("warmup", 5, 3),
                o.getInt("poll-ms", 500, 500),
                o.get("redis-prefix", "axbench:wakeup:"),
                Boolean.parseBoolean(o.get("keep-tables", "false")));
    }

    /** Every (database, kind) the options ask for that can be measured, databases first. */
    List<Round> rounds() {
        List<Round> out = new ArrayList<>();
        for (Database d : databases) {
            for (Kind k : kinds) {
                if (d.kinds.contains(k)) {
                    out.add(new Round(d, k));
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no database among " + databases + " has a wake-up among " + kinds
                    + " (LISTEN/NOTIFY is PostgreSQL's alone)");
        }
        return out;
    }

    /**
     * The nodes' cluster settings: the poll interval asked for, a heartbeat of 500 ms and a lease of 2.5 s (the
     * failover benchmark's), an acknowledgement timeout of 2 s, each raised as a longer poll requires.
     */
    ClusterSettings cluster() {
        Duration poll = Duration.ofMillis(pollMs);
        Duration ack = poll.compareTo(Duration.ofSeconds(2)) > 0 ? poll : Duration.ofSeconds(2);
        Duration lease = ack.plusMillis(500);
        return new ClusterSettings(HEARTBEAT, lease, ack, poll, 32);
    }

    /** One round: a database and a wake-up kind. */
    record Round(Database database, Kind kind) {

        /** Its column in the table. */
        String column() {
            return database.label + " " + kind.label;
        }

        /** Its tables' prefix: letters and underscores, short enough for every database's name limit. */
        String tablePrefix() {
            return "axwake_" + database.option + "_" + kind.option + "_";
        }
    }
}
