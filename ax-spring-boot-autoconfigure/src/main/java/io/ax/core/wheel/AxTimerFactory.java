package io.ax.core.wheel;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Makes the timer an engine keeps its due-soon work in. The default is {@link #wheel()}, a hierarchical timing wheel;
 * an application that wants another (instrumented, or backed by its own scheduler) declares a bean of this type.
 */
@FunctionalInterface
public interface AxTimerFactory {

    /**
     * @param tick the span of the finest bucket the engine asks for (1 ms by default); deadlines still fire at their
     *     exact time
     * @param nanoClock the only time source, in {@code System.nanoTime()} terms
     * @param dispatcher receives each due payload on the timer's thread; it does not block
     * @param threadName the name of the timer's thread
     */
    AxTimer<Object> create(Duration tick, LongSupplier nanoClock, Consumer<Object> dispatcher, String threadName);

    /** The hierarchical timing wheel AX uses by default ({@link WheelTimer}). */
    static AxTimerFactory wheel() {
        return WheelTimer::new;
    }
}
