package io.ax.faults;

import io.ax.faults.check.Checker;
import io.ax.faults.check.Findings;
import io.ax.faults.cluster.Cluster;
import io.ax.faults.cluster.FakeTime;
import io.ax.faults.cluster.Node;
import io.ax.faults.cluster.NodeClock;
import io.ax.faults.cluster.NodeSettings;
import io.ax.faults.db.RunDatabase;
import io.ax.faults.inject.FaultContext;
import io.ax.faults.inject.FaultLog;
import io.ax.faults.inject.FaultPlan;
import io.ax.faults.inject.Injector;
import io.ax.faults.load.Traffic;
import io.ax.faults.store.NodeSayings;
import io.ax.faults.store.PgPair;
import io.ax.faults.store.SeriesRepairs;
import io.ax.faults.store.StoreReports;
import io.ax.faults.store.TableCopy;
import io.ax.faults.store.TimelineReader;
import io.ax.test.redis.RedisSentinelSet;
import io.ax.test.redis.RedisServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * One run, start to end: a fresh database, the nodes (each through its own proxies), traffic and the fault plan for
 * the fault time; then quiet (no faults, no traffic, everything healed) until everything due is final or the settle
 * time is up; then the nodes stop and the checker judges the database.
 */
final class Campaign {

    private static final Duration START_BOUND = Duration.ofSeconds(90);
    private static final Duration STOP_BOUND = Duration.ofSeconds(15);
    /** How long the faults under way at the end of the fault time may take to heal (a rolling restart of all). */
    private static final Duration QUIESCE_BOUND = Duration.ofSeconds(180);

    private static final Duration POLL = Duration.ofMillis(250);

    /** The sentinels' down-after-milliseconds: a killed primary is replaced within a few seconds. */
    private static final Duration SENTINEL_DOWN_AFTER = Duration.ofSeconds(2);

    private final RunSettings settings;

    Campaign(RunSettings settings) {
        this.settings = settings;
    }

    /** What a run produced for the report. */
    record Outcome(
            Findings findings,
            Traffic.Counts traffic,
            Map<String, Integer> skipped,
            Duration settle,
            long unrecorded,
            int restartsAfterExit,
            long seriesRepaired) {}

    Outcome run() throws Exception {
        RunDatabase witness = database();
        Files.createDirectories(settings.workDir());
        Log.info(
                "run %d: %d nodes%s%s, %s plan, logs in %s",
                settings.seed(),
                settings.nodes(),
                settings.redis() ? (settings.sentinel() ? " with Redis Sentinel" : " with Redis") : "",
                settings.onPair() ? " on a PostgreSQL pair (" + settings.pair() + ")" : "",
                settings.ciSchedule() ? "the CI" : "a random",
                settings.workDir().toAbsolutePath());
        PgPair pair = null;
        RunDatabase db;
        if (settings.onPair()) {
            witness.resetWitness();
            pair = pair();
            db = RunDatabase.onPair(pair.url(), settings.database(), "postgres");
            db.installStore();
        } else {
            witness.reset();
            db = witness;
        }
        // a runner stopped by a signal stops its servers too
        Thread stopPair = pair == null ? null : new Thread(pair::close, "faults-pair-stop");
        if (stopPair != null) {
            Runtime.getRuntime().addShutdownHook(stopPair);
        }
        try (PgPair closingPair = pair;
                RunDatabase closingStore = db) {
            return run(witness, db, pair);
        } finally {
            witness.close();
            if (stopPair != null) {
                Runtime.getRuntime().removeShutdownHook(stopPair);
            }
        }
    }

    /** A fresh pair in the work folder, or the reason the run cannot have one. */
    private PgPair pair() throws IOException {
        String problem = PgPair.unavailable();
        if (problem != null) {
            throw new Unavailable("--pair: " + problem);
        }
        Path root = settings.workDir().resolve("pg").toAbsolutePath();
        if (Files.exists(root)) {
            try (Stream<Path> old = Files.walk(root)) {
                old.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
        PgPair pair = PgPair.start(root, settings.database(), settings.pair().equals("sync"));
        Log.info("%s up, ports %s", pair, pair.ports());
        return pair;
    }

    private Outcome run(RunDatabase witness, RunDatabase db, PgPair pair) throws Exception {
        RedisSentinelSet sentinel = settings.sentinel() ? RedisSentinelSet.start(SENTINEL_DOWN_AFTER) : null;
        RedisServerProcess redis = settings.redis() && sentinel == null ? redis() : null;
        if (sentinel != null) {
            Log.info(
                    "Sentinel set up: primary %d, replica %d, sentinels %s",
                    sentinel.primaryPort(), sentinel.replicaPort(), sentinel.sentinelNodes());
        }
        Path libfaketime = FakeTime.library();
        if (libfaketime == null) {
            Log.info("no libfaketime on this machine: clock faults are skipped (apt-get install -y faketime)");
        }
        NodeSettings nodeSettings = new NodeSettings(
                settings.java(),
                settings.sampleJar(),
                settings.nodeHeap(),
                settings.workDir(),
                settings.database(),
                settings.pgHost(),
                settings.pgPort(),
                settings.pgUser(),
                settings.pgPassword(),
                pair == null ? List.of() : pair.ports(),
                settings.heartbeat(),
                settings.lease(),
                settings.misfire(),
                settings.redis(),
                settings.redisPermits(),
                sentinel == null ? "" : sentinel.sentinelNodes());
        FaultLog faultLog = new FaultLog(witness);
        try (Closing cluster = new Closing(new Cluster(nodeSettings, db, witness, redis, sentinel, libfaketime))) {
            // a runner stopped by a signal takes its nodes with it
            Thread hook = new Thread(cluster.cluster::killNow, "faults-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            Node jumpy = startNodes(cluster.cluster, libfaketime);
            recordSettings(witness, Map.of("start_us", Long.toString(witness.nowMicros())));

            FaultPlan plan = settings.ciSchedule()
                    ? FaultPlan.ci(settings.redis(), pair != null, settings.lease())
                    : FaultPlan.random(settings.seed(), settings.faultTime(), settings.kinds(), settings.lease());
            Log.info(
                    "fault plan: %d steps, the last at +%d s",
                    plan.steps().size(), plan.lastStart().toSeconds());
            Traffic traffic = new Traffic(
                    cluster.cluster,
                    settings.ordersPerSecond(),
                    settings.delayedPerSecond(),
                    settings.seed(),
                    witness.jdbc());
            Injector injector =
                    new Injector(new FaultContext(cluster.cluster, faultLog, jumpy, START_BOUND, pair), plan);
            try {
                cluster.cluster.superviseExits();
                traffic.start();
                injector.start();
                Duration faultTime = settings.ciSchedule() ? plan.lastStart().plusSeconds(1) : settings.faultTime();
                Thread.sleep(faultTime.toMillis()); // the faults and the traffic run meanwhile
                Log.info("quiet: no more faults; waiting for those under way to heal");
            } finally {
                injector.quiesce(QUIESCE_BOUND);
                traffic.close();
                cluster.cluster.stopSupervising();
            }
            cluster.cluster.healAll(START_BOUND);
            long quietUs = witness.nowMicros();
            long markUs = mark(db, quietUs);
            recordSettings(witness, Map.of("quiet_us", Long.toString(quietUs), "mark_us", Long.toString(markUs)));
            Duration settle = settle(db, markUs);
            NodeSayings.record(httpPorts(cluster.cluster), witness.jdbc(), witness.nowMicros());
            Log.info("stopping the nodes");
            cluster.cluster.stopAll(STOP_BOUND);
            cluster.close();
            Runtime.getRuntime().removeShutdownHook(hook);

            StoreReports.record(settings.workDir(), witness.jdbc());
            long seriesRepaired = SeriesRepairs.count(settings.workDir());
            if (pair != null) {
                TimelineReader timelines = new TimelineReader(pair, witness.jdbc());
                for (FaultLog.Failover f : faultLog.failovers()) {
                    timelines.read(f.id(), f.done());
                }
                TableCopy.copy(pair.url(), witness.url(), settings.pgUser(), settings.pgPassword());
                pair.close();
                pair.deleteData();
            }

            Log.info("checking the history");
            Findings findings = Checker.check(witness.jdbc());
            return new Outcome(
                    findings,
                    traffic.counts(),
                    names(faultLog.skipped()),
                    settle,
                    unrecorded(),
                    cluster.cluster.restartsAfterExit(),
                    seriesRepaired);
        }
    }

    /** Only checks the database as the last run left it. */
    Findings checkOnly() {
        try (RunDatabase db = database()) {
            return Checker.check(db.jdbc());
        }
    }

    private RunDatabase database() {
        RunDatabase db = new RunDatabase(
                settings.pgHost(), settings.pgPort(), settings.database(), settings.pgUser(), settings.pgPassword());
        String problem = db.unreachable();
        if (problem != null) {
            throw new Unavailable(
                    "PostgreSQL at " + settings.pgHost() + ":" + settings.pgPort() + " is not reachable: " + problem);
        }
        return db;
    }

    /** A private redis-server; without one on the machine the run stops (a test is skipped), saying so. */
    private static RedisServerProcess redis() {
        return RedisServerProcess.startNew();
    }

    /**
     * Starts the first node alone (it creates the sample's tables), then the others together, and waits for a
     * leader. The last node reads its clock from a file, the target of clock jumps; null when clocks cannot be
     * faked.
     */
    private Node startNodes(Cluster cluster, Path libfaketime) throws IOException {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < settings.nodes(); i++) {
            nodes.add(cluster.add());
        }
        Node jumpy = null;
        if (libfaketime != null && nodes.size() > 1) {
            jumpy = nodes.get(nodes.size() - 1);
            Path file = settings.workDir().resolve(jumpy.name() + ".clock");
            Files.writeString(file, "+0\n");
        }
        // the first node alone until it has created the tables of the sample and its recorders (CREATE TABLE IF
        // NOT EXISTS races between nodes starting together); then the others together
        Node first = nodes.get(0);
        first.start(clockOf(first, jumpy));
        if (!cluster.awaitTables(first, START_BOUND)) {
            throw new IllegalStateException(first + " did not create its tables within " + START_BOUND.toSeconds()
                    + " s; see " + settings.workDir().resolve(first.name() + "-1.log"));
        }
        for (Node n : nodes.subList(1, nodes.size())) {
            n.start(clockOf(n, jumpy));
        }
        for (Node n : nodes) {
            if (!cluster.awaitHeartbeat(n, 0, START_BOUND)) {
                throw new IllegalStateException(
                        n + " did not start within " + START_BOUND.toSeconds() + " s; see " + settings.workDir());
            }
        }
        String leader = cluster.awaitLeader(START_BOUND);
        Log.info("cluster up: %d nodes, %s leads", nodes.size(), leader);
        return jumpy;
    }

    private NodeClock clockOf(Node node, Node jumpy) {
        return node == jumpy
                ? NodeClock.fromFile(settings.workDir().resolve(node.name() + ".clock"))
                : NodeClock.real();
    }

    /**
     * The moment by which everything must be final: the latest due time of the work created before the quiet (the
     * delayed tasks and the orders' windows, which a skewed node puts later), and the quiet itself.
     */
    private static long mark(RunDatabase db, long quietUs) {
        Long delayed = db.jdbc()
                .queryForObject(
                        "SELECT MAX(scheduled_us) FROM " + RunDatabase.PREFIX + "instance WHERE origin = 'DELAYED'",
                        Long.class);
        return Math.max(quietUs, delayed == null ? 0 : delayed) + 1_000_000;
    }

    /** Waits until the database's clock passed the mark and everything due by it is final; bounded. */
    private Duration settle(RunDatabase db, long markUs) {
        long start = System.nanoTime();
        long deadline = start + settings.settle().toNanos() + Math.max(0, (markUs - db.nowMicros()) * 1_000);
        int unfinished = -1;
        while (System.nanoTime() < deadline) {
            unfinished = unfinished(db, markUs);
            if (unfinished == 0 && db.nowMicros() > markUs) {
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                Log.info("settled: everything due by the mark is final after %.1f s", took.toMillis() / 1000.0);
                return took;
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
        Log.info(
                "not settled within %d s: %d instance(s) due by the mark are not final",
                settings.settle().toSeconds(), unfinished);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static int unfinished(RunDatabase db, long markUs) {
        Integer n = db.jdbc()
                .queryForObject(
                        "SELECT COUNT(*) FROM " + RunDatabase.PREFIX + "instance WHERE scheduled_us <= ?"
                                + " AND state NOT IN ('SUCCESS', 'DEAD', 'CANCELLED', 'SKIPPED')",
                        Integer.class,
                        markUs);
        return n == null ? 0 : n;
    }

    private void recordSettings(RunDatabase db, Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("seed", Long.toString(settings.seed()));
        all.put("command", settings.command());
        all.put("nodes", Integer.toString(settings.nodes()));
        all.put("redis", Boolean.toString(settings.redis()));
        all.put("sentinel", Boolean.toString(settings.sentinel()));
        all.put("pair", settings.pair());
        all.put("lease_ms", Long.toString(settings.lease().toMillis()));
        all.put("heartbeat_ms", Long.toString(settings.heartbeat().toMillis()));
        all.put("misfire_ms", Long.toString(settings.misfire().toMillis()));
        all.put("early_tolerance_ms", Long.toString(settings.earlyTolerance().toMillis()));
        all.putAll(more);
        db.recordSettings(all);
    }

    private static Map<String, Integer> httpPorts(Cluster cluster) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Node n : cluster.nodes()) {
            if (n.httpPort() > 0) {
                out.put(n.name(), n.httpPort());
            }
        }
        return out;
    }

    /** How many attempts the nodes' recorders could not write (each a WARN line in a node's log). */
    private long unrecorded() throws IOException {
        long n = 0;
        try (Stream<Path> logs = Files.list(settings.workDir())) {
            for (Path log : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
                try (Stream<String> lines = Files.lines(log)) {
                    n += lines.filter(l -> l.contains("UNRECORDED:")).count();
                }
            }
        }
        return n;
    }

    private static Map<String, Integer> names(Map<io.ax.faults.inject.FaultKind, Integer> byKind) {
        Map<String, Integer> out = new LinkedHashMap<>();
        byKind.forEach((k, v) -> out.put(k.cliName(), v));
        return out;
    }

    /** The cluster, closed once however the run ends. */
    private static final class Closing implements AutoCloseable {

        private final Cluster cluster;
        private boolean closed;

        Closing(Cluster cluster) {
            this.cluster = cluster;
        }

        @Override
        public void close() throws InterruptedException {
            if (!closed) {
                closed = true;
                cluster.close();
            }
        }
    }
}
