package io.ax.faults.inject;

import io.ax.test.redis.RedisServerProcess;

/** The private redis-server killed ({@code SIGKILL}) and started again, empty, after a pause. */
final class RedisRestart implements Fault {

    @Override
    public void inject(FaultContext context, FaultPlan.Step step) throws InterruptedException {
        RedisServerProcess redis = context.cluster().redis();
        if (redis == null) {
            context.log().skipped(step.kind(), "the run has no Redis");
            return;
        }
        FaultLog.Entry entry = context.log()
                .begin(
                        step.kind(),
                        "redis",
                        "kill -9, down for " + step.length().toMillis() + " ms, started empty");
        redis.kill();
        try {
            FaultContext.hold(step.length());
        } finally {
            redis.start();
        }
        entry.end();
    }
}
