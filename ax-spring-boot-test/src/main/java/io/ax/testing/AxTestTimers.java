package io.ax.testing;

import io.ax.core.wheel.AxTimer;
import io.ax.core.wheel.AxTimerFactory;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/** Makes the engine's timer a {@link VirtualTimer}, and keeps it for the tester. One engine per test context. */
final class AxTestTimers implements AxTimerFactory {

    private volatile VirtualTimer timer;

    @Override
    public AxTimer<Object> create(
            Duration tick, LongSupplier nanoClock, Consumer<Object> dispatcher, String threadName) {
        VirtualTimer made = new VirtualTimer(nanoClock, dispatcher, threadName);
        if (timer != null) {
            throw new IllegalStateException("AX's test support drives one engine per test context; a second asked for"
                    + " a timer (" + threadName + ")");
        }
        timer = made;
        return made;
    }

    /** The engine's timer; fails when no engine was built in this context. */
    VirtualTimer timer() {
        VirtualTimer t = timer;
        if (t == null) {
            throw new IllegalStateException("no AX engine was built in this test context");
        }
        return t;
    }
}
