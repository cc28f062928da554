package io.ax.testing;

import io.ax.core.AxClockJumpEvent;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.engine.EngineObserver;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** Counts what the engine reports doing, so that the tester can tell a settled engine from one between two steps. */
final class AxTestActivity implements EngineObserver {

    private final AtomicLong events = new AtomicLong();

    long events() {
        return events.get();
    }

    @Override
    public void dispatched(AxTask task, DispatchOutcome outcome) {
        events.incrementAndGet();
    }

    @Override
    public void received(AxTask task) {
        events.incrementAndGet();
    }

    @Override
    public void started(AxTask task, int attempt, Duration lateness, Duration ackLatency) {
        events.incrementAndGet();
    }

    @Override
    public void finished(AxTask task, InstanceState outcome, Duration took) {
        events.incrementAndGet();
    }

    @Override
    public void retried(AxTask task) {
        events.incrementAndGet();
    }

    @Override
    public void deadLettered(AxTask task) {
        events.incrementAndGet();
    }

    @Override
    public void clockJumped(AxClockJumpEvent event) {
        events.incrementAndGet();
    }

    @Override
    public void acknowledged(AxTask task, Duration latency) {
        events.incrementAndGet();
    }
}
