package io.ax.faults.inject;

import io.ax.faults.cluster.Node;

/**
 * The wall clock of the node started with a clock file jumps (forwards when {@code pick} is even, else backwards) by
 * 2 to 6 seconds, stays there for the step's length, and jumps back to true.
 */
final class ClockJump implements Fault {

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        Node node = context.jumpy();
        if (node == null || node.isRetired() || node.clock().file() == null) {
            context.log().skipped(step.kind(), "no node runs with a clock file");
            return;
        }
        if (!node.isRunning() || !node.tryClaim()) {
            context.log().skipped(step.kind(), node + " is busy with another fault");
            return;
        }
        try {
            long seconds = (2 + step.pick() % 5) * (step.pick() % 2 == 0 ? 1L : -1L);
            FaultLog.Entry entry = context.log()
                    .begin(
                            step.kind(),
                            node.name(),
                            "wall clock jumps " + (seconds > 0 ? "+" : "") + seconds + " s for "
                                    + step.length().toMillis() + " ms, then back");
            FaultContext.writeOffset(node.clock().file(), seconds);
            try {
                FaultContext.hold(step.length());
            } finally {
                FaultContext.writeOffset(node.clock().file(), 0);
            }
            entry.end();
        } finally {
            node.release();
        }
    }
}
