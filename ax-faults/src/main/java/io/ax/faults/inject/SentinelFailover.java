package io.ax.faults.inject;

import io.ax.test.redis.RedisSentinelSet;
import java.time.Duration;

/**
 * A failover of the run's Redis Sentinel set that loses the last writes: the replica is stopped ({@code SIGSTOP})
 * and its link cut on the primary, the primary takes writes alone for the step's length, is killed ({@code kill -9}),
 * the replica goes on and the sentinels promote it. The nodes find the new primary through the sentinels. Once a run:
 * the set has no replica left afterwards, so a later step is skipped, saying so.
 */
final class SentinelFailover implements Fault {

    private static final Duration PROMOTION_BOUND = Duration.ofSeconds(30);

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        RedisSentinelSet set = context.cluster().sentinel();
        if (set == null) {
            context.log().skipped(step.kind(), "the run's Redis is no Sentinel set (--sentinel)");
            return;
        }
        if (!context.firstSentinelFailover()) {
            context.log().skipped(step.kind(), "the Sentinel set failed over already and has no replica left");
            return;
        }
        FaultLog.Entry entry = context.log()
                .begin(
                        step.kind(),
                        "redis",
                        "replica on port " + set.replicaPort() + " stopped, the primary on port " + set.primaryPort()
                                + " takes writes alone for " + step.length().toMillis() + " ms, then kill -9;"
                                + " the sentinels promote the replica");
        set.detachReplica();
        try {
            FaultContext.hold(step.length());
            set.killPrimary();
        } finally {
            set.resumeReplica();
        }
        set.awaitPromoted(PROMOTION_BOUND);
        entry.end();
    }
}
