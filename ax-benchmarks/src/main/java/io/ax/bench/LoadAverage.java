package io.ax.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This machine's 1-minute load average, for a table's notes: a benchmark on a shared machine says how busy it was. */
public final class LoadAverage {

    private LoadAverage() {}

    /** The 1-minute load average; NaN where {@code /proc/loadavg} cannot be read (not Linux). */
    public static double now() {
        try {
            String line = Files.readString(Path.of("/proc/loadavg"));
            return Double.parseDouble(line.substring(0, line.indexOf(' ')));
        } catch (IOException | RuntimeException unknown) {
            return Double.NaN;
        }
    }
}
