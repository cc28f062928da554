package io.ax.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This machine's 1-minute load average and this process's nice value, for a table's notes: a benchmark on a shared
 * machine says how busy it was.
 */
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

    /**
     * This process's nice value (its children inherit it): a run started with {@code nice -n -10} says so in its
     * notes. 0 where {@code /proc/self/stat} cannot be read.
     */
    public static int niceness() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // after the command name in parentheses: state is field 3, nice field 19
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[16]);
        } catch (IOException | RuntimeException unknown) {
            return 0;
        }
    }
}
