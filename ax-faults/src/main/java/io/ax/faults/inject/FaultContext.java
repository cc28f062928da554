package io.ax.faults.inject;

import io.ax.faults.cluster.Cluster;
import io.ax.faults.cluster.Node;
import io.ax.faults.cluster.NodeClock;
import io.ax.faults.store.PgPair;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What a fault acts on: the cluster, the fault log, and the one node whose clock is read from a file (the target of
 * clock jumps). Hands out nodes to faults so that two faults never act on one node at once and at least one node is
 * always left alone. Thread-safe.
 */
public final class FaultContext {

    private final Cluster cluster;
    private final FaultLog log;
    private final Node jumpy;
    private final Duration startBound;
    private final PgPair pair;
    private final java.util.concurrent.atomic.AtomicBoolean sentinelFailedOver =
            new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * @param jumpy the node started with {@link NodeClock#fromFile}, or null when no clock can be faked
     * @param startBound how long a fault waits for a node it started to write its first heartbeat
     * @param pair the run's PostgreSQL pair, or null in a run on one server
     */
    public FaultContext(Cluster cluster, FaultLog log, Node jumpy, Duration startBound, PgPair pair) {
        this.cluster = cluster;
        this.log = log;
        this.jumpy = jumpy;
        this.startBound = startBound;
        this.pair = pair;
    }

    /** True the first time it is asked: the Sentinel set fails over once a run. */
    boolean firstSentinelFailover() {
        return sentinelFailedOver.compareAndSet(false, true);
    }

    /** The run's PostgreSQL pair, or null. */
    PgPair pair() {
        return pair;
    }

    Cluster cluster() {
        return cluster;
    }

    FaultLog log() {
        return log;
    }

    Node jumpy() {
        return jumpy;
    }

    Duration startBound() {
        return startBound;
    }

    /**
     * Claims a running node for a fault: the leader when {@code pick} is even and the kind may hit it, else the
     * candidate {@code pick} points at. Null when none may be claimed: every candidate is busy with another fault,
     * or claiming one would leave no running node free of faults.
     */
    Node claim(int pick, boolean mayBeLeader, Predicate<Node> filter) {
        List<Node> all = cluster.nodes();
        List<Node> free = new ArrayList<>();
        for (Node n : all) {
            if (n.isRunning() && !n.isClaimed()) {
                free.add(n);
            }
        }
        if (free.size() < 2 && all.size() > 1) {
            return null;
        }
        List<Node> candidates = free.stream().filter(filter).toList();
        if (candidates.isEmpty()) {
            return null;
        }
        List<Node> order = new ArrayList<>();
        if (mayBeLeader && pick % 2 == 0) {
            String leader = cluster.leader();
            candidates.stream().filter(n -> n.name().equals(leader)).forEach(order::add);
        }
        for (int i = 0; i < candidates.size(); i++) {
            order.add(candidates.get((pick / 2 + i) % candidates.size()));
        }
        for (Node n : order) {
            if (n.tryClaim()) {
                if (n.isRunning()) {
                    return n;
                }
                n.release();
            }
        }
        return null;
    }

    /** Starts a node (again) and waits for its first heartbeat, saying so when it does not come. */
    void startAndAwait(Node node, NodeClock clock) {
        if (!cluster.startAndAwait(node, clock, startBound)) {
            io.ax.faults.Log.info(
                    "%s did not write a heartbeat within %d s of its start", node, startBound.toSeconds());
        }
    }

    /** Writes the offset of the jumpy node's clock file, atomically: the node reads it on every clock call. */
    static void writeOffset(Path file, long seconds) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, (seconds < 0 ? "" : "+") + seconds + "\n");
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the clock file " + file, e);
        }
    }

    /** Sleeps for a fault's length; the point of the sleep is the fault going on meanwhile. */
    static void hold(Duration length) throws InterruptedException {
        Thread.sleep(length.toMillis());
    }
}
