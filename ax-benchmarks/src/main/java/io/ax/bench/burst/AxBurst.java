package io.ax.bench.burst;

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
import java.util.List;
import java.util.Map;

/**
 * AX with its in-memory store: the burst is one on-demand task (concurrent, MEMORY) triggered {@code tasks} times
 * with {@link AxEngine#triggerNow}; the triggering is inside the measured time. An execution counts when it reached
 * SUCCESS ({@link AxExecutor#onSuccess} runs after that transition).
 */
final class AxBurst implements BurstSystem {

    static final String TASK = "burst";
    static final int RETENTION = 50_000;

    private AxEngine engine;
    private int tasks;
    private Probe probe;

    @Override
    public String name() {
        return "AX (MEMORY)";
    }

    @Override
    public void prepare(int tasks, int threads, Probe probe) {
        this.tasks = tasks;
        this.probe = probe;
        engine = AxEngine.builder()
                .store(new InMemoryInstanceStore(RETENTION))
                .router(new ExecutorRouter(List.of(new CountingExecutor(probe))))
                .pools(Map.of(AxTask.DEFAULT_GROUP, new PoolSettings(threads, tasks)))
                .build();
        engine.register(AxTask.builder(TASK)
                .concurrent(true)
                .durability(Durability.MEMORY)
                .build());
        engine.start();
    }

    @Override
    public void start() {
        long t0 = System.nanoTime();
        for (int i = 0; i < tasks; i++) {
            engine.triggerNow(TASK);
        }
        BurstScenario.log(
                "%s: %,d triggerNow() calls returned in %.2f s (%,d executed by then)",
                name(), tasks, (System.nanoTime() - t0) / 1e9, probe.executions());
    }

    @Override
    public boolean drained() {
        return probe.executions() >= tasks;
    }

    @Override
    public void tearDown() {
        engine.stop();
        engine = null;
    }

    /** Counts an execution once it reached SUCCESS ({@link AxExecutor#onSuccess} runs after that transition). */
    record CountingExecutor(Probe probe) implements AxExecutor {

        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            return null;
        }

        @Override
        public void onSuccess(AxTask task, AxContext context, AxResult result) {
            probe.done();
        }
    }
}
