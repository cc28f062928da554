package io.ax.faults.inject;

import io.ax.faults.cluster.Node;

/**
 * One node cut off from the database (the leader half of the time): its proxy blackholes every connection, open and
 * new, without closing any, then passes again, delivering what it held.
 */
final class Partition implements Fault {

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        Node node = context.claim(step.pick(), true, n -> true);
        if (node == null) {
            context.log().skipped(step.kind(), "no node free to cut off");
            return;
        }
        try {
            boolean leader = node.name().equals(context.cluster().leader());
            FaultLog.Entry entry = context.log()
                    .begin(
                            step.kind(),
                            node.name(),
                            "database traffic blackholed" + (leader ? " (the leader)" : "") + " for "
                                    + step.length().toMillis() + " ms");
            node.dbProxy().blackhole();
            try {
                FaultContext.hold(step.length());
            } finally {
                node.dbProxy().pass();
            }
            entry.end();
        } finally {
            node.release();
        }
    }
}
