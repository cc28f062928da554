package io.ax.core.engine.planning;

import io.ax.core.clock.AxClock;
import io.ax.core.engine.threads.EngineLog;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The WARN lines for missed fire times, bounded. A leader back from a long pause, or one that takes over after a
 * failover, finds the fires of every task missed at once: with 10,000 tasks, 10,000 lines in a second that bury
 * whatever else happened. The first {@link #LINES_PER_WINDOW} of a {@link #WINDOW} are logged each; the rest are
 * counted and summed up in one line when the window ends, naming a few of the tasks. Every one stays at DEBUG.
 */
final class MisfireLog {

    private static final System.Logger LOG = EngineLog.get();
    static final int LINES_PER_WINDOW = 10;
    static final Duration WINDOW = Duration.ofSeconds(10);
    private static final int NAMED_IN_SUMMARY = 5;

    private final AxClock clock;
    /** Runs the summary after the window: the engine's timer, never the caller's thread. */
    private final BiConsumer<Duration, Runnable> after;

    private long windowStart = Long.MIN_VALUE;
    private int logged;
    private int suppressed;
    private final List<String> suppressedTasks = new ArrayList<>();

    MisfireLog(AxClock clock, BiConsumer<Duration, Runnable> after) {
        this.clock = clock;
        this.after = after;
    }

    /** One task's missed fire times: {@code line} says what its misfire policy made of them. */
    void missed(String taskName, String line) {
        boolean warn;
        boolean firstSuppressed = false;
        synchronized (this) {
            long now = clock.nanoTime();
            if (windowStart == Long.MIN_VALUE || now - windowStart >= WINDOW.toNanos()) {
                if (suppressed == 0) {
                    windowStart = now;
                    logged = 0;
                }
                // else: the summary of the last window is on its way and opens the next one
            }
            warn = logged < LINES_PER_WINDOW;
            if (warn) {
                logged++;
            } else {
                firstSuppressed = suppressed == 0;
                suppressed++;
                if (suppressedTasks.size() < NAMED_IN_SUMMARY) {
                    suppressedTasks.add(taskName);
                }
            }
        }
        if (warn) {
            LOG.log(Level.WARNING, line);
            return;
        }
        LOG.log(Level.DEBUG, line);
        if (firstSuppressed) {
            long left = WINDOW.toNanos() - (clock.nanoTime() - windowStart);
            after.accept(Duration.ofNanos(Math.max(0, left)), this::summarize);
        }
    }

    /** Logs the summary of what the window left out, and opens the next window. */
    void summarize() {
        int count;
        List<String> named;
        synchronized (this) {
            count = suppressed;
            named = List.copyOf(suppressedTasks);
            suppressed = 0;
            suppressedTasks.clear();
            windowStart = clock.nanoTime();
            logged = 0;
        }
        if (count > 0) {
            LOG.log(
                    Level.WARNING,
                    "{0} more task(s) missed fire times within {1} s, e.g. {2}; each one''s misfire policy applied"
                            + " (every one is logged at DEBUG)",
                    count,
                    WINDOW.toSeconds(),
                    named);
        }
    }
}
