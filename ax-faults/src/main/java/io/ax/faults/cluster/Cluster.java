package io.ax.faults.cluster;

import io.ax.faults.Log;
import io.ax.faults.db.RunDatabase;
import io.ax.test.net.FaultProxy;
import io.ax.test.redis.RedisSentinelSet;
import io.ax.test.redis.RedisServerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The nodes of a run ({@code n1}, {@code n2}, ...), their proxies, the private redis-server if the run has one, and
 * what the database says of them: who leads, who is alive. Names are never reused: a node that joins later gets the
 * next number. Thread-safe.
 */
public final class Cluster implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(100);

    private final NodeSettings settings;
    /** The store: AX's tables, what the nodes' engines write. */
    private final RunDatabase db;
    /** The runner's and the recorders' tables (the store itself on one server). */
    private final RunDatabase witness;

    private final RedisServerProcess redis;
    private final RedisSentinelSet sentinel;
    private final Launcher launcher;
    private final ExecutorService exits;
    /** Starts again what exited by itself, as an orchestrator does (thread {@code faults-supervisor}). */
    private final ScheduledExecutorService supervisor =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "faults-supervisor"));

    private final AtomicInteger restartsAfterExit = new AtomicInteger();

    /** Every node ever added, by name, in order; guarded by this object's monitor. */
    private final Map<String, Node> nodes = new LinkedHashMap<>();

    /**
     * @param db the store (AX's tables)
     * @param witness where the runner and the recorders write (the store itself in a run on one server)
     * @param redis the private redis-server, or null for a run without Redis or with a Sentinel set
     * @param sentinel the run's Sentinel set, or null
     * @param libfaketime the preloadable library that fakes clocks, or null when there is none
     */
    public Cluster(
            NodeSettings settings,
            RunDatabase db,
            RunDatabase witness,
            RedisServerProcess redis,
            RedisSentinelSet sentinel,
            Path libfaketime) {
        this.sentinel = sentinel;
        this.settings = settings;
        this.db = db;
        this.witness = witness;
        this.redis = redis;
        // one named thread records the exits of the node processes; it never holds more than their number
        this.exits = new ThreadPoolExecutor(
                1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(256), r -> new Thread(r, "faults-exits"));
        this.launcher = new Launcher(settings, witness, libfaketime, exits);
    }

    public NodeSettings settings() {
        return settings;
    }

    public boolean fakesClocks() {
        return launcher.fakesClocks();
    }

    /** Adds a node with its own proxies, not started. */
    public synchronized Node add() {
        String name = "n" + (nodes.size() + 1);
        DbProxies dbProxy = DbProxies.start(settings.upstreamHost(), settings.upstreams());
        FaultProxy redisProxy = redis == null ? null : FaultProxy.start("127.0.0.1", redis.port());
        Node node = new Node(name, dbProxy, redisProxy, launcher);
        nodes.put(name, node);
        return node;
    }

    /** The nodes not retired, in order of their names. */
    public synchronized List<Node> nodes() {
        return nodes.values().stream().filter(n -> !n.isRetired()).toList();
    }

    public synchronized Node node(String name) {
        return nodes.get(name);
    }

    /** Takes a node out of the cluster for good (a replaced leader); it is not started again. */
    public void retire(Node node) {
        node.retire();
    }

    /** The witness database's clock now (the machine's, which the pair shares), in microseconds. */
    public long nowMicros() {
        return witness.nowMicros();
    }

    /** The run's Sentinel set, or null. */
    public RedisSentinelSet sentinel() {
        return sentinel;
    }

    /** The private redis-server, or null. */
    public RedisServerProcess redis() {
        return redis;
    }

    /**
     * From now on, a node whose process exits by itself (a start that failed because its database was cut just
     * then) is started again after a second, as Kubernetes restarts a pod that crashed; without it, the cluster of a
     * long run shrinks to nothing. A node a fault holds is left to that fault.
     */
    public void superviseExits() {
        supervisor.scheduleWithFixedDelay(this::restartExited, 1, 1, TimeUnit.SECONDS);
    }

    /** How many times a node that exited by itself was started again. */
    public int restartsAfterExit() {
        return restartsAfterExit.get();
    }

    private void restartExited() {
        for (Node n : nodes()) {
            if (!n.exitedByItself() || !n.tryClaim()) {
                continue;
            }
            try {
                if (n.exitedByItself()) {
                    Log.info("%s exited by itself; starting it again, as an orchestrator would", n);
                    restartsAfterExit.incrementAndGet();
                    n.start(n.clock());
                }
            } catch (RuntimeException e) {
                Log.info("%s could not be started again: %s", n, e);
            } finally {
                n.release();
            }
        }
    }

    /** Stops starting exited nodes again (the quiet phase heals the cluster itself). */
    public void stopSupervising() {
        supervisor.shutdownNow();
    }

    /** The node holding an unexpired lease, on the database's clock; null when none does. */
    public String leader() {
        List<String> holders;
        try {
            holders = jdbc().queryForList(
                            "SELECT holder FROM " + RunDatabase.PREFIX + "leader WHERE name = 'leader'"
                                    + " AND expires_us > CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)",
                            String.class);
        } catch (DataAccessException e) {
            // the store fails over under the runner too: no leader it can see just now
            return null;
        }
        return holders.isEmpty() ? null : holders.get(0);
    }

    /** Nodes whose heartbeat is younger than the lease, on the database's clock. */
    public Set<String> live() {
        return new HashSet<>(jdbc().queryForList(
                        "SELECT node_id FROM " + RunDatabase.PREFIX + "node WHERE heartbeat_us"
                                + " > CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT) - ?",
                        String.class,
                        settings.lease().toNanos() / 1000));
    }

    /**
     * Starts a node and waits up to {@code bound} until it has written a heartbeat since; false when it did not
     * (still starting, or its process ended).
     */
    public boolean startAndAwait(Node node, NodeClock clock, Duration bound) {
        long since = witness.nowMicros();
        node.start(clock);
        return awaitHeartbeat(node, since, bound);
    }

    /** Waits up to {@code bound} for a heartbeat of the node written after {@code sinceMicros} (database clock). */
    public boolean awaitHeartbeat(Node node, long sinceMicros, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            if (!node.isRunning()) {
                return false;
            }
            try {
                List<Long> beats = jdbc().queryForList(
                                "SELECT heartbeat_us FROM " + RunDatabase.PREFIX + "node WHERE node_id = ?",
                                Long.class,
                                node.name());
                if (!beats.isEmpty() && beats.get(0) > sinceMicros) {
                    return true;
                }
            } catch (DataAccessException e) {
                // the store is failing over: ask again
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
        return false;
    }

    /**
     * Waits up to {@code bound} until the tables a starting node creates for the sample's orders and its recorders
     * exist; false when they did not (still starting, or its process ended).
     */
    public boolean awaitTables(Node node, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline && node.isRunning()) {
            Boolean orders = jdbc().queryForObject("SELECT to_regclass('sample_order') IS NOT NULL", Boolean.class);
            Boolean recorders = witness.jdbc()
                    .queryForObject(
                            "SELECT to_regclass('faults_run') IS NOT NULL AND to_regclass('faults_limit') IS NOT NULL",
                            Boolean.class);
            if (Boolean.TRUE.equals(orders) && Boolean.TRUE.equals(recorders)) {
                return true;
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
        return false;
    }

    /** Waits up to {@code bound} for some node to lead; its name, or null. */
    public String awaitLeader(Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            String leader = leader();
            if (leader != null) {
                return leader;
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
        return null;
    }

    /**
     * Undoes every fault: every proxy passes, every frozen node goes on, Redis runs, and every node of the cluster
     * that is not running is started (with a true clock), waiting up to {@code bound} for each.
     */
    public void healAll(Duration bound) throws InterruptedException {
        List<Node> all;
        synchronized (this) {
            all = new ArrayList<>(nodes.values());
        }
        for (Node n : all) {
            n.dbProxy().pass();
            if (n.redisProxy() != null) {
                n.redisProxy().pass();
            }
            n.thaw();
        }
        if (redis != null) {
            redis.start();
        }
        for (Node n : nodes()) {
            if (!n.isRunning()) {
                Log.info("heal: %s was not running; starting it", n);
                NodeClock clock = n.clock().file() != null ? n.clock() : NodeClock.real();
                if (!startAndAwait(n, clock, bound)) {
                    Log.info("heal: %s did not come up within %d s", n, bound.toSeconds());
                }
            }
        }
    }

    /** Stops every node at once with SIGTERM, waiting up to {@code bound} for each (then SIGKILL). */
    public void stopAll(Duration bound) throws InterruptedException {
        List<Thread> stops = new ArrayList<>();
        for (Node n : nodes()) {
            Thread t = new Thread(
                    () -> {
                        try {
                            if (!n.stop(bound)) {
                                Log.info("%s did not stop within %d s of SIGTERM: killed", n, bound.toSeconds());
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "faults-stop-" + n.name());
            t.start();
            stops.add(t);
        }
        for (Thread t : stops) {
            t.join();
        }
    }

    private JdbcTemplate jdbc() {
        return db.jdbc();
    }

    /**
     * Kills every node process at once, without waiting or recording anything: what a shutdown hook does when the
     * runner itself is stopped, so that no node outlives it.
     */
    public void killNow() {
        List<Node> all;
        synchronized (this) {
            all = new ArrayList<>(nodes.values());
        }
        for (Node n : all) {
            n.killNow();
        }
        if (redis != null) {
            redis.kill();
        }
        if (sentinel != null) {
            sentinel.close();
        }
    }

    /** Kills whatever still runs, closes the proxies, and waits for the exits to be recorded. */
    @Override
    public void close() throws InterruptedException {
        supervisor.shutdownNow();
        List<Node> all;
        synchronized (this) {
            all = new ArrayList<>(nodes.values());
        }
        for (Node n : all) {
            n.kill();
            n.dbProxy().close();
            if (n.redisProxy() != null) {
                n.redisProxy().close();
            }
        }
        exits.shutdown();
        exits.awaitTermination(10, TimeUnit.SECONDS);
        if (redis != null) {
            redis.close();
        }
        if (sentinel != null) {
            sentinel.close();
        }
    }
}
