package io.ax.faults.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * How a node's wall clock is faked, through libfaketime preloaded into its JVM: not at all, a fixed offset ahead
 * ({@code FAKETIME}), or an offset read from a file on every call ({@code FAKETIME_TIMESTAMP_FILE}, {@code
 * FAKETIME_NO_CACHE}), which the runner rewrites to make the clock jump. The monotonic clock is never faked
 * ({@code FAKETIME_DONT_FAKE_MONOTONIC}), so the node's timed waits and its clock-jump detector's reference stay
 * true; {@code FAKETIME_FORCE_MONOTONIC_FIX=0} keeps the JVM's timed waits from returning at once and spinning.
 *
 * @param ahead the fixed offset, or null
 * @param file the offset file, or null
 */
public record NodeClock(Duration ahead, Path file) {

    private static final NodeClock REAL = new NodeClock(null, null);

    public NodeClock {
        if (ahead != null && file != null) {
            throw new IllegalArgumentException("a node clock is ahead or read from a file, not both");
        }
    }

    public static NodeClock real() {
        return REAL;
    }

    public static NodeClock ahead(Duration offset) {
        return new NodeClock(offset, null);
    }

    public static NodeClock fromFile(Path file) {
        return new NodeClock(null, file);
    }

    /** Adds the variables that fake the clock to a node's environment. */
    void apply(Map<String, String> env, Path libfaketime) {
        if (ahead == null && file == null) {
            return;
        }
        if (libfaketime == null) {
            throw new IllegalStateException("a faked clock needs libfaketime (apt-get install -y faketime)");
        }
        env.put("LD_PRELOAD", libfaketime.toString());
        env.put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        env.put("FAKETIME_FORCE_MONOTONIC_FIX", "0");
        if (ahead != null) {
            env.put("FAKETIME", "+" + ahead.toSeconds() + "s");
        } else {
            env.put("FAKETIME_TIMESTAMP_FILE", file.toAbsolutePath().toString());
            env.put("FAKETIME_NO_CACHE", "1");
        }
    }

    @Override
    public String toString() {
        if (ahead != null) {
            return "ahead " + ahead.toMillis() + " ms";
        }
        return file != null ? "from " + file.getFileName() : "real";
    }
}
