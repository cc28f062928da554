package io.ax.core.clock;

import java.time.Instant;

/**
 * The two clocks the engine reads: wall time, used only to compute fire times and to talk to people, and a
 * monotonic nano clock, used for every deadline. Injected everywhere, so tests can drive time.
 */
public interface AxClock {

    /** Wall-clock time. */
    Instant instant();

    /** Monotonic time in nanoseconds, with {@link System#nanoTime()}'s contract: only differences mean anything. */
    long nanoTime();

    /** The system clocks. */
    static AxClock system() {
        return SystemClock.INSTANCE;
    }
}
