package io.ax.faults.inject;

import io.ax.faults.cluster.Node;

/** SIGSTOP of a node past its lease (the leader half of the time), then SIGCONT. */
final class Freeze implements Fault {

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        Node node = context.claim(step.pick(), true, n -> true);
        if (node == null) {
            context.log().skipped(step.kind(), "no node free to freeze");
            return;
        }
        try {
            boolean leader = node.name().equals(context.cluster().leader());
            FaultLog.Entry entry = context.log()
                    .begin(
                            step.kind(),
                            node.name(),
                            "SIGSTOP" + (leader ? " of the leader" : "") + " for "
                                    + step.length().toMillis() + " ms, then SIGCONT");
            node.freeze();
            try {
                FaultContext.hold(step.length());
            } finally {
                node.thaw();
            }
            entry.end();
        } finally {
            node.release();
        }
    }
}
