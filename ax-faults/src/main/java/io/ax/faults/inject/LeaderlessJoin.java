package io.ax.faults.inject;

import io.ax.faults.cluster.Node;
import io.ax.faults.cluster.NodeClock;

/**
 * The leader killed for good and, at once, a node that never ran before started in its place, so that it joins
 * while no node leads; the dead leader's id never comes back, so its work must be taken over by others.
 */
final class LeaderlessJoin implements Fault {

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        String leaderName = context.cluster().leader();
        Node leader = leaderName == null ? null : context.cluster().node(leaderName);
        if (leader == null || leader.isRetired() || !leader.isRunning() || !leader.tryClaim()) {
            context.log().skipped(step.kind(), "no leader free to kill (" + leaderName + ")");
            return;
        }
        Node fresh = context.cluster().add();
        if (!fresh.tryClaim()) {
            throw new IllegalStateException("a node just added is claimed: " + fresh);
        }
        try {
            FaultLog.Entry entry = context.log()
                    .begin(
                            step.kind(),
                            leader.name() + "," + fresh.name(),
                            "kill -9 of the leader " + leader.name() + " for good, and " + fresh.name()
                                    + " started at once");
            leader.kill();
            context.cluster().retire(leader);
            context.startAndAwait(fresh, NodeClock.real());
            entry.end();
        } finally {
            fresh.release();
            leader.release();
        }
    }
}
