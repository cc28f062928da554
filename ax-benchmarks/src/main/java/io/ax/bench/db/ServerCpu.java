package io.ax.bench.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of the local PostgreSQL server: utime + stime of every process named {@code postgres}, read from
 * {@code /proc} (Linux, server on this machine). NaN when {@code /proc} cannot be read, so a remote server shows
 * as "not measured". Backends that exit during the window are lost; the pools keep theirs open.
 */
public final class ServerCpu {

    /** USER_HZ: the unit of the times in /proc/[pid]/stat; 100 on every Linux we run on. */
    private static final double TICKS_PER_SECOND = 100.0;

    private final Map<Long, Long> start;

    private ServerCpu(Map<Long, Long> start) {
        this.start = start;
    }

    public static ServerCpu start() {
        return new ServerCpu(snapshot());
    }

    /** CPU seconds of the postgres processes since {@link #start}, or NaN if unknown. */
    public double seconds() {
        if (start == null) {
            return Double.NaN;
        }
        Map<Long, Long> now = snapshot();
        if (now == null) {
            return Double.NaN;
        }
        long ticks = 0;
        for (Map.Entry<Long, Long> e : now.entrySet()) {
            ticks += e.getValue() - start.getOrDefault(e.getKey(), 0L);
        }
        return ticks / TICKS_PER_SECOND;
    }

    private static Map<Long, Long> snapshot() {
        Map<Long, Long> ticks = new HashMap<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .forEach(p -> {
                        try {
                            String stat = Files.readString(p.resolve("stat"));
                            int close = stat.lastIndexOf(')');
                            String name = stat.substring(stat.indexOf('(') + 1, close);
                            if (!name.equals("postgres")) {
                                return;
                            }
                            // fields after the name: state(3) ... utime(14) stime(15)
                            String[] f = stat.substring(close + 2).split(" ");
                            ticks.put(
                                    Long.parseLong(p.getFileName().toString()),
                                    Long.parseLong(f[11]) + Long.parseLong(f[12]));
                        } catch (IOException | RuntimeException gone) {
                            // the process ended while we looked
                        }
                    });
        } catch (IOException e) {
            return null;
        }
        return ticks.isEmpty() ? null : ticks;
    }
}
