package io.ax.core.engine.ownership;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.WakeUps;
import io.ax.core.engine.threads.EngineLog;
import io.ax.core.engine.work.Execution;
import io.ax.core.engine.work.InstanceRunner;
import io.ax.core.engine.writes.Fence;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.engine.writes.StateWriter;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What a node gives back because it will not run it: the attempts it claimed and did not start (a stop, a pool that
 * would not take one), and at its start what an earlier version left DISPATCHED to its last run. Each goes back to
 * SCHEDULED with a change conditional on this node, and the owners are woken to find it at once.
 */
public final class Handback {

    private static final System.Logger LOG = EngineLog.get();

    private final String nodeId;
    private final StateWriter writer;
    private final InstanceRunner runner;
    private final WakeUps wakeUps;

    public Handback(String nodeId, StateWriter writer, InstanceRunner runner, WakeUps wakeUps) {
        this.nodeId = nodeId;
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
        if (!back.isEmpty()) {
            LOG.log(
                    Level.INFO,
                    "Node {0} stops: {1} instance(s) it had not started go back for another node",
                    nodeId,
                    back.size());
            giveBack(back);
        }
    }

    /**
     * At start: instances DISPATCHED to this node's last run (only an earlier version assigned them; this one
     * claims in one write) go back to SCHEDULED, for the owner of their partition to claim, whichever node that is
     * and whether or not this node knows their task. Never waits.
     */
    public void lastRunsAssignments(List<TaskInstance> dispatched) {
        List<Transition> back = new ArrayList<>(dispatched.size());
        for (TaskInstance in : dispatched) {
            back.add(writer.change(
                            in.id(),
                            InstanceState.DISPATCHED,
                            InstanceState.SCHEDULED,
                            in.attempt(),
                            "returned: node " + nodeId + " starts again, and its last run had not started it")
                    .ownedBy(nodeId));
        }
        if (!back.isEmpty()) {
            LOG.log(
                    Level.INFO,
                    "Node {0}: {1} instance(s) assigned to its last run go back for the owners of their partitions",
                    nodeId,
                    back.size());
            giveBack(back);
        }
    }

    private void giveBack(List<Transition> back) {
        List<CompletableFuture<Boolean>> outcomes = writer.submitAllOrFail(back);
        for (int i = 0; i < back.size(); i++) {
            Transition t = back.get(i);
            outcomes.get(i).whenComplete((applied, error) -> {
                if (error != null) {
                    LOG.log(
                            Level.WARNING,
                            "Instance {0} could not be returned; the owner of its partition recovers it once node {1}"
                                    + " is gone: {2}",
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
}
