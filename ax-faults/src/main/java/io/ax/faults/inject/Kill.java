package io.ax.faults.inject;

import io.ax.faults.cluster.Node;

/** {@code kill -9} of a node, the leader half of the time; started again, with the clock it had, after a pause. */
final class Kill implements Fault {

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        Node node = context.claim(step.pick(), true, n -> true);
        if (node == null) {
            context.log().skipped(step.kind(), "no node free to kill");
            return;
        }
        try {
            boolean leader = node.name().equals(context.cluster().leader());
            FaultLog.Entry entry = context.log()
                    .begin(
                            step.kind(),
                            node.name(),
                            "kill -9" + (leader ? " of the leader" : "") + ", down for "
                                    + step.length().toMillis() + " ms, restarted with its clock " + node.clock());
            node.kill();
            FaultContext.hold(step.length());
            context.startAndAwait(node, node.clock());
            entry.end();
        } finally {
            node.release();
        }
    }
}
