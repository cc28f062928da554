package io.ax.bench.recurring;

import io.ax.bench.db.Probe;
import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.trigger.CronTrigger;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * AX with its in-memory store: one cron trigger per cadence shared by the tasks of that cadence (so they share one
 * wheel entry), MEMORY durability, one pool of {@code threads} workers whose queue holds every task at once (the
 * worst burst: all groups due on the same second).
 */
final class AxRecurring implements RecurringSystem {

    static final int RETENTION = 50_000;

    /** The pool queue; 0 = big enough for every task at once. */
    private final int queue;

    private AxEngine engine;

    AxRecurring(int queue) {
        this.queue = queue;
    }

    @Override
    public String name() {
        return "AX";
    }

    @Override
    public boolean owns(String threadName) {
        return threadName.startsWith("ax-");
    }

    @Override
    public void setUp(Load load, int threads, Probe probe) {
        engine = AxEngine.builder()
                .store(new InMemoryInstanceStore(RETENTION))
                .router(new ExecutorRouter(List.of(new ProbeExecutor(probe))))
                .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(threads, queue > 0 ? queue : queueCapacity(load))))
                .build();
        for (Load.Group g : load.groups()) {
            CronTrigger trigger = CronTrigger.of(g.cadence().quartzCron, ZoneOffset.UTC);
            for (int i = 0; i < g.count(); i++) {
                engine.register(AxTask.builder(g.prefix() + "-" + i)
                        .trigger(trigger)
                        .durability(Durability.MEMORY)
                        .build());
            }
        }
    }

    static int queueCapacity(Load load) {
        return Math.max(20_000, load.tasks());
    }

    @Override
    public void start() {
        engine.start();
    }

    @Override
    public void tearDown() {
        engine.stop();
        engine = null;
    }

    /** The no-op handler: records lateness against the instance's fire time. */
    private record ProbeExecutor(Probe probe) implements AxExecutor {

        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            probe.executed(context.scheduledTime());
            return null;
        }
    }
}
