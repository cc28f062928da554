package io.ax.faults.cluster;

import io.ax.test.net.FaultProxy;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One node of the cluster, by name, across its restarts: its own proxies (one to the database, one to Redis when the
 * run has it), so that it alone can be cut off, and the process running it now. A fault acting on the node first
 * {@linkplain #tryClaim() claims} it, so that two faults never act on one node at once. Thread-safe: the process
 * operations are serialised by the node's monitor.
 */
public final class Node {

    private final String name;
    private final DbProxies db;
    private final FaultProxy redis;
    private final Launcher launcher;

    /** Held by the fault acting on this node; tryLock only, never waited for by a fault of another node. */
    private final ReentrantLock claim = new ReentrantLock();

    /** Written under the monitor; volatile so that {@link #killNow} reads it without. */
    private volatile NodeProcess process;

    private NodeClock clock = NodeClock.real();
    private boolean frozen;
    private boolean retired;

    /** What the runner last did to end the process; read when its exit is recorded. */
    private volatile String ending;

    Node(String name, DbProxies db, FaultProxy redis, Launcher launcher) {
        this.name = name;
        this.db = db;
        this.redis = redis;
        this.launcher = launcher;
    }

    public String name() {
        return name;
    }

    public DbProxies dbProxy() {
        return db;
    }

    /** The node's proxy to Redis, or null in a run without Redis. */
    public FaultProxy redisProxy() {
        return redis;
    }

    /** Starts a process with {@code clock}; the node must not be running. */
    public synchronized void start(NodeClock clock) {
        start(clock, null);
    }

    /**
     * Starts a process with {@code clock} whose database URL lists the pair's server on port {@code firstServer}
     * first (null: the pair's order); the node must not be running.
     */
    public synchronized void start(NodeClock clock, Integer firstServer) {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("node " + name + " is already running (pid " + process.pid() + ")");
        }
        this.clock = clock;
        this.ending = null;
        this.frozen = false;
        this.process =
                launcher.launch(name, db.ports(firstServer), redis == null ? null : redis.port(), clock, () -> ending);
    }

    /** SIGKILL, and waits until the process is gone; nothing when it is not running. */
    public synchronized void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            ending = "kill -9";
            if (frozen) {
                ending = "kill -9 while frozen";
            }
            process.kill();
            frozen = false;
        }
    }

    /** SIGKILL without waiting or taking the node's monitor: for a shutdown hook. */
    void killNow() {
        NodeProcess p = process;
        if (p != null) {
            p.process().destroyForcibly();
        }
    }

    /** SIGTERM and waits up to {@code bound}; SIGKILL if it did not exit by then. Returns whether it exited. */
    public synchronized boolean stop(Duration bound) throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return true;
        }
        if (frozen) {
            process.thaw();
            frozen = false;
        }
        ending = "SIGTERM";
        if (process.terminate(bound)) {
            return true;
        }
        ending = "SIGTERM, then kill -9 after " + bound.toSeconds() + " s";
        process.kill();
        return false;
    }

    public synchronized void freeze() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.freeze();
            frozen = true;
        }
    }

    public synchronized void thaw() throws InterruptedException {
        if (process != null && frozen) {
            process.thaw();
            frozen = false;
        }
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /**
     * Whether its last process exited by itself (a start that failed: its database was cut as it started, say), not
     * by anything the runner did to it.
     */
    public synchronized boolean exitedByItself() {
        return process != null && !process.isAlive() && ending == null;
    }

    /** The HTTP port of the running process, or -1. */
    public synchronized int httpPort() {
        return process != null && process.isAlive() ? process.httpPort() : -1;
    }

    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    public synchronized NodeClock clock() {
        return clock;
    }

    /** A node replaced by a new one (killed for good): never started again, not counted as the cluster's. */
    public synchronized boolean isRetired() {
        return retired;
    }

    synchronized void retire() {
        retired = true;
    }

    /** Claims the node for one fault; false when another fault holds it. */
    public boolean tryClaim() {
        return claim.tryLock();
    }

    public boolean isClaimed() {
        return claim.isLocked();
    }

    public void release() {
        claim.unlock();
    }

    @Override
    public String toString() {
        return name;
    }
}
