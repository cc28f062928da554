package io.ax.bench.timers;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Netty's {@link HashedWheelTimer} with a 1 ms tick, 512 ticks per wheel, leak detection on and no limit on
 * pending timeouts (its defaults apart from the tick); the {@link Timeout}s are kept in an array.
 */
final class NettyTimers implements TimerSystem {

    private HashedWheelTimer timer;
    private Timeout[] handles;

    @Override
    public void open(int capacity) {
        ThreadFactory threads = task -> {
            Thread thread = new Thread(task, "bench-netty-wheel");
            thread.setDaemon(true);
            return thread;
        };
        timer = new HashedWheelTimer(threads, 1, TimeUnit.MILLISECONDS, 512, true, -1);
        timer.start();
        handles = new Timeout[capacity];
    }

    @Override
    public void schedule(int index, Probe probe, long delayNanos) {
        handles[index] = timer.newTimeout(probe, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean cancel(int index) {
        return handles[index].cancel();
    }

    @Override
    public void close() {
        timer.stop();
        timer = null;
        handles = null;
    }
}
