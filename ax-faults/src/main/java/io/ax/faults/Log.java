package io.ax.faults;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The runner's progress lines, on stderr, each stamped with the seconds since the run began on the runner's
 * monotonic clock (the clock the fault log's {@code mono_*} columns use). The report goes to stdout. Thread-safe.
 */
public final class Log {

    private static final long T0 = System.nanoTime();

    private Log() {}

    /** Milliseconds since the run began, on the monotonic clock. */
    public static long monoMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - T0);
    }

    public static void info(String format, Object... args) {
        String line = String.format(Locale.ROOT, "[%8.3f s] ", monoMillis() / 1000.0)
                + String.format(Locale.ROOT, format, args);
        synchronized (System.err) {
            System.err.println(line);
        }
    }
}
