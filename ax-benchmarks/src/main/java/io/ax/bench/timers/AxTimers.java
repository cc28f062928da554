package io.ax.bench.timers;

import io.ax.core.wheel.WheelTimer;
import java.time.Duration;

/** AX's {@link WheelTimer} with a 1 ms tick; the handles are kept in a {@code long[]}. */
final class AxTimers implements TimerSystem {

    private WheelTimer<Probe> timer;
    private long[] handles;

    @Override
    public void open(int capacity) {
        timer = new WheelTimer<>(Duration.ofMillis(1), System::nanoTime, Probe::run, "bench-ax-wheel");
        timer.start();
        handles = new long[capacity];
    }

    @Override
    public void schedule(int index, Probe probe, long delayNanos) {
        // AX takes the absolute deadline: the caller's clock reading is reused, no second one is taken.
        handles[index] = timer.schedule(probe.deadlineNanos(), probe);
    }

    @Override
    public boolean cancel(int index) {
        return timer.cancel(handles[index]);
    }

    @Override
    public void close() {
        timer.close();
        timer = null;
        handles = null;
    }
}
