package io.ax.bench.soak;

import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs every task of the {@link Workload}: records the start in {@link Runs} (and a delayed execution in the
 * {@link DelayedLedger}) before doing the kind's work, so a run that fails or times out is counted too.
 */
final class SoakExecutor implements AxExecutor {

    private final Runs runs;
    private final DelayedLedger ledger;

    SoakExecutor(Runs runs, DelayedLedger ledger) {
        this.runs = runs;
        this.ledger = ledger;
    }

    @Override
    public boolean matchTaskType(String type) {
        return Workload.TYPE.equals(type);
    }

    @Override
    public AxResult execute(AxTask task, AxContext context) throws Exception {
        Instant now = Instant.now();
        if (Workload.DELAYED.equals(task.target())) {
            int seq = Integer.parseInt(context.payloadString());
            runs.delayedStarted(seq, ledger.ran(seq), context.scheduledTime(), now);
            return null;
        }
        runs.fireStarted(task.name(), context.instanceId(), context.attempt(), context.scheduledTime(), now);
        Workload.Kind.valueOf(task.target()).work(ThreadLocalRandom.current());
        return null;
    }
}
