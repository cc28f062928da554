package io.ax.faults.inject;

import io.ax.faults.cluster.Node;
import io.ax.faults.cluster.NodeClock;

/**
 * A node stopped (SIGTERM) and started again with its wall clock {@code length} ahead. The fault ends when the node
 * is up; its clock stays ahead until its next restart by a rolling restart. Never the node with the clock file.
 */
final class SkewedStart implements Fault {

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        if (!context.cluster().fakesClocks()) {
            context.log().skipped(step.kind(), "no libfaketime on this machine");
            return;
        }
        Node node = context.claim(step.pick(), true, n -> n != context.jumpy());
        if (node == null) {
            context.log().skipped(step.kind(), "no node free to restart with a skewed clock");
            return;
        }
        try {
            FaultLog.Entry entry = context.log()
                    .begin(
                            step.kind(),
                            node.name(),
                            "SIGTERM, then started with its wall clock "
                                    + step.length().toSeconds() + " s ahead");
            node.stop(context.startBound());
            context.startAndAwait(node, NodeClock.ahead(step.length()));
            entry.end();
        } finally {
            node.release();
        }
    }
}
