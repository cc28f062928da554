package io.ax.faults.inject;

import io.ax.faults.cluster.Node;
import java.util.List;

/**
 * The whole database cut, for every node at once: when {@code pick} is even every proxy blackholes (a partition of
 * the database), when odd every connection is reset and new ones refused (as if the server went down). Needs no
 * node of its own: it runs beside faults on single nodes.
 */
final class DatabaseOutage implements Fault {

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        boolean blackhole = step.pick() % 2 == 0;
        List<Node> nodes = context.cluster().nodes();
        FaultLog.Entry entry = context.log()
                .begin(
                        step.kind(),
                        "all",
                        (blackhole ? "every proxy blackholed" : "every connection reset and new ones refused") + " for "
                                + step.length().toMillis() + " ms");
        try {
            for (Node n : nodes) {
                if (blackhole) {
                    n.dbProxy().blackhole();
                } else {
                    n.dbProxy().refuse();
                    n.dbProxy().cutAll();
                }
            }
            FaultContext.hold(step.length());
        } finally {
            for (Node n : nodes) {
                n.dbProxy().pass();
            }
        }
        entry.end();
    }
}
