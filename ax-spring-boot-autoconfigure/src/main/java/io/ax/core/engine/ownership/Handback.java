package io.ax.core.engine.ownership;

import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.work.Execution;
import io.ax.core.engine.work.InstanceRunner;
import io.ax.core.engine.writes.Fence;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.engine.writes.StateWriter;
import io.ax.core.engine.writes.StoreRouter;
import io.ax.core.store.OwnedInstance;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What a node gives back because it will not run it: the attempts it claimed and did not start (a stop, a pool that
 * would not take one), and on a normal stop what was left DISPATCHED to it. Each goes back to SCHEDULED with a
 * change conditional on this node, and the owners are woken to find it at once.
 */
public final class Handback {

    private static final System.Logger LOG = EngineLog.get();

    private final String nodeId;
    private final StoreRouter stores;
    private final StateWriter writer;
    private final InstanceRunner runner;
    private final WakeUps wakeUps;

    public Handback(String nodeId, StoreRouter stores, StateWriter writer, InstanceRunner runner, WakeUps wakeUps) {
        this.nodeId = nodeId;
        this.stores = stores;
        this.writer = writer;
        this.runner = runner;
        this.wakeUps = wakeUps;
    }

    /**
     * On a stop, or a claim whose pool would not take it: instances this node claimed (RUNNING) that no thread of it
     * started go back to SCHEDULED, for the owner of their partition to run. Never waits: the writer applies them
     * before it stops.
     */
    public void unstarted(List<Execution> unstarted) {
        runner.notStarted(unstarted);
        List<Transition> back = new ArrayList<>();
        for (Execution ex : unstarted) {
            if (InstanceIds.isMemory(ex.instanceId())) {
                continue; // it lives in this process only: nothing another node could run
            }
            back.add(writer.owned(
                    ex.instanceId(),
                    InstanceState.RUNNING,
                    InstanceState.SCHEDULED,
                    ex.attempt,
                    "returned: node " + nodeId + " stops before it started attempt " + ex.attempt,
                    null,
                    Fence.NONE));
        }
        if (back.isEmpty()) {
            return;
        }
        LOG.log(
                Level.INFO,
                "Node {0} stops: {1} instance(s) it had not started go back for another node",
                nodeId,
                back.size());
        List<CompletableFuture<Boolean>> outcomes = writer.submitAllOrFail(back);
        for (int i = 0; i < back.size(); i++) {
            Transition t = back.get(i);
            outcomes.get(i).whenComplete((applied, error) -> {
                if (error != null) {
                    LOG.log(
                            Level.WARNING,
                            "Instance {0} could not be returned; the owner of its partition recovers it once node {1} is gone: {2}",
                            t.instanceId(),
                            nodeId,
                            error.toString());
                } else {
                    StateWriter.logMove(t, applied);
                }
            });
        }
        // the owners look for them once they are in the store, not at their next sweep
        CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new))
                .whenComplete((ignored, error) -> wakeUps.signal(List.of(WakeUps.LEADER)));
    }

    /** On a normal stop: the instances DISPATCHED here and not claimed go back, for their partition's owner. */
    public void assignments() {
        try {
            List<Transition> back = new ArrayList<>();
            for (OwnedInstance o : stores.findOwned(EnumSet.of(InstanceState.DISPATCHED), nodeId, 10_000)) {
                back.add(writer.change(
                                o.instance().id(),
                                InstanceState.DISPATCHED,
                                InstanceState.SCHEDULED,
                                o.instance().attempt(),
                                "returned: node " + nodeId + " stops")
                        .ownedBy(nodeId));
            }
            writer.submitAll(back);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Node {0} could not return its unstarted assignments: {1}", nodeId, e.toString());
        }
    }
}
