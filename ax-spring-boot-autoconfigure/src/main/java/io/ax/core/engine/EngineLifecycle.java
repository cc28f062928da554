package io.ax.core.engine;

import io.ax.core.Durability;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.ownership.Recovery;
import io.ax.core.logging.Loggers;
import java.lang.System.Logger.Level;

/**
 * The start and the stop of one engine, each in the order its parts need: at the start the writers and threads before
 * the recovery, the recovery before the prefetch, the partitions before the background work; at the stop the
 * decisions first, then the work in hand, then the store's last writes, each step that needs the store bounded.
 * Runs on the caller's thread; the bounded steps of a stop each on an {@code ax-stop} thread of their own.
 */
final class EngineLifecycle {

    private static final System.Logger LOG = Loggers.get(AxEngine.class.getName());

    private final EngineParts parts;

    EngineLifecycle(EngineParts parts) {
        this.parts = parts;
    }

    /** See {@link AxEngine#start()}. */
    void start() {
        if (parts.lifecycle.get() != EngineParts.Lifecycle.NEW) {
            return;
        }
        try {
            parts.runtimeTasks.load(); // the tasks registered at runtime, as the store has them
        } catch (RuntimeException e) {
            leaveWhatWasAccepted();
            throw e;
        }
        WorkflowGraph graph = WorkflowGraph.of(parts.tasks.values());
        if (!parts.lifecycle.compareAndSet(EngineParts.Lifecycle.NEW, EngineParts.Lifecycle.STARTED)) {
            return;
        }
        parts.workflows.graph(graph);
        if (parts.clusterTime != null) {
            parts.clusterTime.start(); // the offset is known before the first fire time is decided
        }
        parts.writer.start();
        parts.fireWriter.start();
        parts.endWriter.start();
        parts.threads.start();
        try {
            parts.membership.checkProtocol(); // before this node writes anything beside nodes of another version
            new Recovery(
                            parts.stores,
                            parts.clock,
                            parts.nodeId,
                            parts.tasks,
                            parts.taskRegistry.paused(),
                            parts.dispatcher,
                            parts.handback,
                            parts.runner,
                            parts.threads::after)
                    .run();
            parts.limited.start();
            parts.prefetcher.start();
            parts.membership.start(); // a node alone leads at once; the takeover plans and loads before this returns
            // a node's MEMORY instances are decided by the owner of their partition on it: their fences are its own
            parts.membership
                    .partitions()
                    .ifPresent(owned -> parts.stores.memory().fencedByPartitions(owned.count(), owned::epoch));
            parts.leadership.takeUpMoves(); // with partitions: what it gained, planned and loaded before this returns
        } catch (RuntimeException e) {
            parts.lifecycle.set(EngineParts.Lifecycle.STOPPED);
            if (parts.clusterTime != null) {
                parts.clusterTime.stop();
            }
            parts.prefetcher.stop();
            parts.limited.stop();
            parts.threads.stopNow();
            parts.writer.stop(0);
            parts.fireWriter.stop(0);
            parts.endWriter.stop(0);
            leaveWhatWasAccepted();
            throw e;
        }
        parts.leadership.start();
        parts.runtimeTasks.start(parts.membership.settings().heartbeat());
        parts.retention.start();
        parts.activity.start();
        // work written elsewhere (a run on demand, a delayed task, a handback) wakes the owners of its partitions; no
        // node is signalled by its id any more, since no node assigns work to another
        parts.wakeUps.listen(signal -> {
            if (WakeUps.LEADER.equals(signal)) {
                parts.leadership.wakeUp();
            }
        });
        parts.clockGuard.start();
        if (parts.departedCommits != null) {
            parts.departedCommits.start(); // what nodes that stopped left, checked now and kept
        }
        parts.figures.deadLetters(); // the first read, so that the first look finds a count
        LOG.log(Level.INFO, startedLine());
    }

    /**
     * A start that fails: what the node's API accepted meanwhile (a web server answers before the engine is up) is
     * left to the other nodes, since a store that failed over just before may be what made the start fail, and may
     * have lost it.
     */
    private void leaveWhatWasAccepted() {
        if (parts.departedCommits != null) {
            parts.departedCommits.stopAndLeave();
        }
    }

    /**
     * The one line that tells, at start, what this engine is: node, store, its tasks by durability and its cluster
     * role; a newcomer reads in it whether AX keeps its work in memory or in the database.
     */
    private String startedLine() {
        long memoryTasks = parts.tasks.values().stream()
                .filter(t -> t.durability() == Durability.MEMORY)
                .count();
        return "AX engine started on node " + parts.nodeId + ": store " + parts.store.describe() + ", "
                + parts.tasks.size()
                + " task(s) (" + (parts.tasks.size() - memoryTasks) + " PERSISTENT, " + memoryTasks + " MEMORY)"
                + ", cluster role " + parts.membership.view().role().name().toLowerCase(java.util.Locale.ROOT)
                + parts.membership
                        .partitions()
                        .map(p -> ", owns " + p.owned().size() + " of " + p.count() + " partitions now")
                        .orElse("")
                + (parts.pools.virtualGroups().isEmpty()
                        ? ""
                        : ", virtual threads in pool(s) " + parts.pools.virtualGroups());
    }

    /** See {@link AxEngine#stop()}. */
    void stop() {
        if (parts.lifecycle.getAndSet(EngineParts.Lifecycle.STOPPED) != EngineParts.Lifecycle.STARTED) {
            return;
        }
        parts.clockGuard.stop();
        if (parts.clusterTime != null) {
            parts.clusterTime.stop();
        }
        parts.wakeUps.close();
        parts.leadership.stop();
        parts.runtimeTasks.stop();
        parts.retention.stop();
        parts.prefetcher.stop();
        // the steps that talk to the store are bounded: with the database gone, a stop must still end
        bounded("hand the leader lease over", parts.membership::resign); // a standby takes over at once
        parts.threads.stop(parts.shutdownAwait);
        // what waits in a pool's queue was acknowledged and never started: another node runs it now, not this one
        // after the shutdown wait (a claim the writer confirms later finds the pools shut and returns its instance)
        parts.handback.unstarted(parts.pools.stopTaking());
        parts.pools.awaitRunning(parts.shutdownAwait.toNanos(), () -> {
            int handed = parts.runner.handOverAtStop(parts.shutdownAwait);
            if (handed > 0) {
                LOG.log(
                        Level.WARNING,
                        "Node {0} stops with {1} attempt(s) still running after its shutdown wait of {2}: each is"
                                + " interrupted and recorded as a takeover, to run again on the node that owns it next",
                        parts.nodeId,
                        handed,
                        parts.shutdownAwait);
            }
        });
        // permits not given back by now free themselves: their attempts are over in the store
        parts.limited.stop();
        parts.writer.stop(parts.shutdownAwait.toMillis());
        parts.fireWriter.stop(parts.shutdownAwait.toMillis());
        parts.endWriter.stop(parts.shutdownAwait.toMillis());
        parts.activity.stop();
        bounded("write its last activity counts", parts.activity::flushQuietly); // after the last attempt ended
        // a failover that lost this node's last commits shortly before the stop is said now or never: what the
        // node remembers of them is gone with it
        if (parts.writer.outage().isEmpty() && parts.endWriter.outage().isEmpty()) { // a store away answers nothing
            bounded("check its last changes against the store", parts.storeRegressions::checkAtStop);
        }
        if (parts.departedCommits != null) {
            parts.departedCommits.stopAndLeave(); // for a failover after this stop, which this node cannot see
        }
        parts.listeners.stop(parts.shutdownAwait.toMillis());
        bounded("leave the node registry", parts.membership::close); // no work left here
        parts.figures.stop();
        LOG.log(Level.INFO, "AX engine stopped on node {0}", parts.nodeId);
    }

    /**
     * Runs a step of the stop that needs the store on a thread of its own, for at most the cluster's lease: a store
     * that does not answer (a connection that hangs without a socket timeout) must not keep the application from
     * stopping. A step that does not end in time goes on in the background, on a daemon thread.
     */
    private void bounded(String what, Runnable step) {
        Thread thread = new Thread(
                () -> {
                    try {
                        step.run();
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, "Node {0} could not {1}: {2}", parts.nodeId, what, e.toString());
                    }
                },
                "ax-stop");
        thread.setDaemon(true);
        thread.start();
        try {
            thread.join(parts.membership.settings().lease().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.log(
                    Level.WARNING,
                    "Node {0} could not {1} within {2}: the store does not answer; stopping without it",
                    parts.nodeId,
                    what,
                    parts.membership.settings().lease());
        }
    }
}
