package io.ax.faults.inject;

import io.ax.faults.Log;
import io.ax.faults.cluster.Node;
import io.ax.faults.store.PgPair;
import java.time.Duration;

/**
 * A failover of the run's PostgreSQL pair, of three kinds: {@code pg-failover} promotes a standby that has every
 * acknowledged commit; {@code pg-lagging-failover} first lets the primary commit alone for the step's length, so the
 * promoted standby lacks those commits; {@code pg-old-primary-back} does a lagging failover (2 s behind), then starts
 * the old primary again beside the new one and a node (not the leader) again with the old one first in its URL, so
 * that it decides on the old timeline for the step's length from its first heartbeat there; then stops the old one
 * and that node's process, re-forms the pair and starts the node again on it. Each ends with the pair re-formed (a new standby from the
 * new primary), so the next failover of the run finds one. The nodes are not told: they find the new primary through
 * their multi-host URL.
 */
final class PairFailover implements Fault {

    private static final Duration OLD_PRIMARY_LAG = Duration.ofSeconds(2);

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        PgPair pair = context.pair();
        if (pair == null) {
            context.log().skipped(step.kind(), "the run has no PostgreSQL pair (--pair)");
            return;
        }
        if (!pair.tryClaim()) {
            context.log().skipped(step.kind(), "another failover of the pair is under way");
            return;
        }
        try {
            switch (step.kind()) {
                case PG_FAILOVER -> caughtUp(context, pair, step);
                case PG_LAGGING_FAILOVER -> lagging(context, pair, step);
                default -> oldPrimaryBack(context, pair, step);
            }
        } finally {
            pair.release();
        }
    }

    private static void caughtUp(FaultContext context, PgPair pair, FaultPlan.Step step) {
        FaultLog.Entry entry = context.log()
                .begin(
                        step.kind(),
                        "pair",
                        "primary on port " + pair.primaryPort() + " stopped (-m immediate), the standby on port "
                                + pair.standbyPort() + " promoted with every acknowledged commit"
                                + (pair.synchronous() ? "" : " (made synchronous just before)"));
        PgPair.Failover f = pair.failover();
        context.log().failover(step.kind(), f);
        pair.reform();
        entry.end();
    }

    private static void lagging(FaultContext context, PgPair pair, FaultPlan.Step step) throws InterruptedException {
        FaultLog.Entry entry = context.log()
                .begin(
                        step.kind(),
                        "pair",
                        "the standby on port " + pair.standbyPort() + " stops streaming, the primary on port "
                                + pair.primaryPort() + " commits alone for "
                                + step.length().toMillis()
                                + " ms, is stopped (-m immediate), the standby promoted");
        PgPair.Failover f = pair.laggingFailover(step.length());
        context.log().failover(step.kind(), f);
        pair.reform();
        entry.end();
    }

    private static void oldPrimaryBack(FaultContext context, PgPair pair, FaultPlan.Step step)
            throws InterruptedException {
        String leader = context.cluster().leader();
        Node node = context.claim(step.pick() | 1, false, n -> !n.name().equals(leader));
        if (node == null) {
            context.log().skipped(step.kind(), "no node but the leader free to start on the old primary");
            return;
        }
        try {
            FaultLog.Entry entry = context.log()
                    .begin(
                            step.kind(),
                            "pair," + node.name(),
                            "lagging failover (" + OLD_PRIMARY_LAG.toMillis() + " ms behind), then the old primary"
                                    + " back as a primary beside the new one, " + node.name() + " started again with"
                                    + " it first in its URL and left there for "
                                    + step.length().toMillis()
                                    + " ms once it beats");
            PgPair.Failover f = pair.laggingFailover(OLD_PRIMARY_LAG);
            long id = context.log().failover(step.kind(), f);
            pair.startOldPrimary(f);
            long from = context.cluster().nowMicros();
            try {
                node.kill();
                long before = pair.lastHeartbeat(f.oldPort(), node.name());
                node.start(node.clock(), f.oldPort());
                // a node takes many seconds to start on a busy machine: the split brain lasts from its first beat
                if (!pair.awaitHeartbeat(f.oldPort(), node.name(), before, context.startBound())) {
                    Log.info(
                            "%s wrote no heartbeat on the old primary within %d s",
                            node, context.startBound().toSeconds());
                }
                FaultContext.hold(step.length());
            } finally {
                pair.stopOldPrimary(f);
                context.log().oldPrimaryBack(id, from, context.cluster().nowMicros());
                node.kill();
            }
            pair.reform();
            Log.info("%s back on the pair after its time on the old primary", node);
            context.startAndAwait(node, node.clock());
            entry.end();
        } finally {
            node.release();
        }
    }
}
