package io.ax.faults.inject;

import io.ax.faults.cluster.Node;
import io.ax.faults.cluster.NodeClock;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A deployment: every node in turn stopped with SIGTERM, waited for, and started again (a skewed clock comes back
 * true; the clock file stays), the next one only once the last has written a heartbeat. A node busy with another
 * fault is waited for a while, then left out.
 */
final class RollingRestart implements Fault {

    private static final Duration WAIT_FOR_NODE = Duration.ofSeconds(20);

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        FaultLog.Entry entry = context.log()
                .begin(step.kind(), "all", "SIGTERM, wait for the exit, start again; one node after the other");
        for (Node node : context.cluster().nodes()) {
            if (!claim(node)) {
                context.log().skipped(step.kind(), node + " stayed busy with another fault: left out of the restart");
                continue;
            }
            try {
                if (!node.isRunning()) {
                    continue;
                }
                if (!node.stop(context.startBound())) {
                    io.ax.faults.Log.info(
                            "%s did not stop within %d s: killed",
                            node, context.startBound().toSeconds());
                }
                NodeClock clock = node.clock().file() != null ? node.clock() : NodeClock.real();
                context.startAndAwait(node, clock);
            } finally {
                node.release();
            }
        }
        entry.end();
    }

    private static boolean claim(Node node) {
        long deadline = System.nanoTime() + WAIT_FOR_NODE.toNanos();
        while (System.nanoTime() < deadline) {
            if (node.tryClaim()) {
                return true;
            }
            LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
        }
        return false;
    }
}
