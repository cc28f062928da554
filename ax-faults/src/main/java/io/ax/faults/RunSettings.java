package io.ax.faults;

import io.ax.faults.inject.FaultKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Properties;
import java.util.Set;

/**
 * What one run does; see the module's README for every option.
 *
 * @param seed the seed of the fault plan and the traffic
 * @param faultTime how long faults are injected ({@code --minutes}; the CI plan has its own length)
 * @param nodes how many nodes run at a time
 * @param redis whether the nodes use a private redis-server, each through its own proxy
 * @param redisPermits whether the nodes keep the permits of their limits on that Redis ({@code --redis-permits})
 * @param sentinel whether the run's Redis is a Sentinel set (a primary, a replica, three sentinels) that the nodes
 *     reach through the sentinels, without proxies ({@code --sentinel}, with {@code --redis})
 * @param pair {@code async} or {@code sync}: the nodes' store is a PostgreSQL primary and streaming standby the run
 *     starts itself, replicating that way, and the server at {@code pgHost} holds the witness; empty: the store is a
 *     database on that server
 * @param ciSchedule whether the plan is the fixed CI one (each kind once) instead of a random one from the seed
 * @param kinds the kinds a random plan draws from
 * @param sampleJar the sample application's executable jar, which every node runs
 * @param workDir where the node logs go
 * @param database the database the runner creates (drops first) and the nodes share
 * @param pgHost PostgreSQL's host
 * @param pgPort PostgreSQL's port
 * @param pgUser PostgreSQL's user
 * @param pgPassword PostgreSQL's password
 * @param heartbeat the nodes' {@code ax.cluster.heartbeat}
 * @param lease the nodes' {@code ax.cluster.lease}
 * @param misfire the nodes' {@code ax.misfire.threshold}: a fire started later than this counts as late
 * @param settle how long the quiet cluster may take to finish what was due
 * @param earlyTolerance how much earlier than its due time (database clock) a delayed task may start
 * @param ordersPerSecond orders opened per second over HTTP
 * @param delayedPerSecond delayed tasks scheduled per second over HTTP
 * @param nodeHeap each node's {@code -Xmx}
 * @param java the java executable the nodes run on
 * @param checkOnly whether to skip the run and check the database as the last run left it
 */
record RunSettings(
        long seed,
        Duration faultTime,
        int nodes,
        boolean redis,
        boolean redisPermits,
        boolean sentinel,
        String pair,
        boolean ciSchedule,
        Set<FaultKind> kinds,
        Path sampleJar,
        Path workDir,
        String database,
        String pgHost,
        int pgPort,
        String pgUser,
        String pgPassword,
        Duration heartbeat,
        Duration lease,
        Duration misfire,
        Duration settle,
        Duration earlyTolerance,
        int ordersPerSecond,
        int delayedPerSecond,
        String nodeHeap,
        Path java,
        boolean checkOnly) {

    static final Set<String> OPTIONS = Set.of(
            "seed",
            "minutes",
            "nodes",
            "redis",
            "redis-permits",
            "pair",
            "sentinel",
            "schedule",
            "faults",
            "sample-jar",
            "work-dir",
            "database",
            "pg-host",
            "pg-port",
            "pg-user",
            "pg-password",
            "heartbeat",
            "lease",
            "misfire",
            "settle",
            "early-tolerance",
            "orders-per-second",
            "delayed-per-second",
            "node-heap",
            "java",
            "check-only",
            "help");

    RunSettings {
        if (nodes < 1 || nodes > 6) {
            throw new IllegalArgumentException("--nodes must be between 1 and 6, was " + nodes);
        }
        if (faultTime.isNegative() || faultTime.isZero()) {
            throw new IllegalArgumentException("--minutes must be at least 1");
        }
        if (lease.compareTo(heartbeat.multipliedBy(2)) <= 0) {
            throw new IllegalArgumentException("--lease (" + lease + ") must be more than twice --heartbeat ("
                    + heartbeat + "), as the nodes require");
        }
        if (redisPermits && !redis) {
            throw new IllegalArgumentException("--redis-permits needs --redis");
        }
        if (sentinel && !redis) {
            throw new IllegalArgumentException("--sentinel needs --redis");
        }
        if (kinds.contains(FaultKind.REDIS_RESTART) && sentinel) {
            throw new IllegalArgumentException("--faults=redis-restart restarts the one redis-server of a run without"
                    + " --sentinel; with it, use redis-sentinel-failover");
        }
        if (kinds.contains(FaultKind.REDIS_SENTINEL_FAILOVER) && !sentinel) {
            throw new IllegalArgumentException("--faults=redis-sentinel-failover needs --redis --sentinel");
        }
        if (kinds.contains(FaultKind.REDIS_RESTART) && !redis) {
            throw new IllegalArgumentException("--faults=redis-restart needs --redis");
        }
        if (!pair.isEmpty() && !pair.equals("async") && !pair.equals("sync")) {
            throw new IllegalArgumentException("--pair is async or sync, was '" + pair + "'");
        }
        for (FaultKind k : kinds) {
            if (k.needsPair() && pair.isEmpty()) {
                throw new IllegalArgumentException("--faults=" + k.cliName() + " needs --pair");
            }
        }
        if (kinds.contains(FaultKind.PG_LAGGING_FAILOVER) && pair.equals("sync")) {
            throw new IllegalArgumentException(
                    "--faults=pg-lagging-failover needs --pair=async: a synchronous standby never lags");
        }
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("--faults names no fault");
        }
        if (ordersPerSecond < 0 || delayedPerSecond < 0) {
            throw new IllegalArgumentException("--orders-per-second and --delayed-per-second must be 0 or more");
        }
        if (!database.matches("[a-z][a-z0-9_]{0,40}")) {
            throw new IllegalArgumentException("--database must be a plain lower-case name, was '" + database + "'");
        }
    }

    static RunSettings from(Options o) {
        boolean redis = o.flag("redis");
        // a bare --pair is an asynchronous pair
        String pair = !o.has("pair") ? "" : o.get("pair", "async").equals("true") ? "async" : o.get("pair", "async");
        String schedule = o.get("schedule", "random");
        if (!schedule.equals("random") && !schedule.equals("ci")) {
            throw new IllegalArgumentException("--schedule is random or ci, was '" + schedule + "'");
        }
        long seed = o.has("seed") ? o.getLong("seed", 0) : System.nanoTime() & 0xFFFF_FFFFL;
        Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        if (o.has("faults")) {
            for (String name : o.get("faults", "").split(",")) {
                kinds.add(FaultKind.fromCli(name));
            }
        } else {
            kinds.addAll(defaultKinds(redis, o.flag("sentinel"), pair));
        }
        return new RunSettings(
                seed,
                Duration.ofMinutes(o.getInt("minutes", 3)),
                o.getInt("nodes", 3),
                redis,
                o.flag("redis-permits"),
                o.flag("sentinel"),
                pair,
                schedule.equals("ci"),
                kinds,
                Path.of(o.get("sample-jar", defaultSampleJar())),
                Path.of(o.get("work-dir", "target/ax-faults/seed-" + seed)),
                o.get("database", "axfaults"),
                o.get("pg-host", "127.0.0.1"),
                o.getInt("pg-port", 5432),
                o.get("pg-user", "postgres"),
                o.get("pg-password", ""),
                o.getDuration("heartbeat", "500ms"),
                o.getDuration("lease", "2500ms"),
                o.getDuration("misfire", "2s"),
                o.getDuration("settle", "60s"),
                o.getDuration("early-tolerance", "250ms"),
                o.getInt("orders-per-second", 4),
                o.getInt("delayed-per-second", 20),
                o.get("node-heap", "256m"),
                Path.of(o.get(
                        "java",
                        Path.of(System.getProperty("java.home"), "bin", "java").toString())),
                o.flag("check-only"));
    }

    /** The command that repeats this run's plan. */
    String command() {
        StringBuilder out = new StringBuilder("java -jar ax-faults/target/ax-faults.jar --seed=" + seed);
        if (ciSchedule) {
            out.append(" --schedule=ci");
        } else {
            out.append(" --minutes=").append(faultTime.toMinutes());
        }
        out.append(" --nodes=").append(nodes);
        if (redis) {
            out.append(" --redis");
        }
        if (redisPermits) {
            out.append(" --redis-permits");
        }
        if (sentinel) {
            out.append(" --sentinel");
        }
        if (!pair.isEmpty()) {
            out.append(" --pair=").append(pair);
        }
        if (!ciSchedule && !kinds.equals(defaultKinds(redis, sentinel, pair))) {
            out.append(" --faults=")
                    .append(String.join(
                            ",", kinds.stream().map(FaultKind::cliName).toList()));
        }
        return out.toString();
    }

    /** Whether the store is the run's own PostgreSQL pair. */
    boolean onPair() {
        return !pair.isEmpty();
    }

    /** The kinds a random plan draws from when {@code --faults} names none. */
    private static Set<FaultKind> defaultKinds(boolean redis, boolean sentinel, String pair) {
        Set<FaultKind> kinds = EnumSet.allOf(FaultKind.class);
        if (!redis || sentinel) {
            kinds.remove(FaultKind.REDIS_RESTART);
        }
        if (!sentinel) {
            kinds.remove(FaultKind.REDIS_SENTINEL_FAILOVER);
        }
        // a split brain is drawn only when named: nothing AX can do fences it (see the README)
        kinds.remove(FaultKind.PG_OLD_PRIMARY_BACK);
        if (pair.isEmpty()) {
            kinds.remove(FaultKind.PG_FAILOVER);
        }
        if (!pair.equals("async")) {
            kinds.remove(FaultKind.PG_LAGGING_FAILOVER);
        }
        return kinds;
    }

    /** The direct JDBC URL of the run's database: the runner's and the recorders', never through a proxy. */
    String directUrl() {
        return "jdbc:postgresql://" + pgHost + ":" + pgPort + "/" + database;
    }

    /** The sample jar of this build, relative to the repository's root. */
    private static String defaultSampleJar() {
        Properties p = new Properties();
        try (InputStream in = RunSettings.class.getResourceAsStream("ax-faults.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "ax-sample-app/target/ax-sample-app-" + p.getProperty("version", "0.1.0-SNAPSHOT") + ".jar";
    }
}
