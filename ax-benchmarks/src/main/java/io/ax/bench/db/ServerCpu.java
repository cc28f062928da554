package io.ax.bench.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of the local PostgreSQL server: utime + stime of every process named {@code postgres}, read from
 * {@code /proc} (Linux, server on this machine), or only of one server's postmaster and its children ({@link
 * #start(long)}). NaN when {@code /proc} cannot be read, so a remote server shows as "not measured". Backends that
 * exit during the window are lost; the pools keep theirs open.
 */
public final class ServerCpu {

    /** USER_HZ: the unit of the times in /proc/[pid]/stat; 100 on every Linux we run on. */
    private static final double TICKS_PER_SECOND = 100.0;

    /** Every server's processes. */
    private static final long ANY_SERVER = -1;

    private final long postmaster;
    private final Map<Long, Long> start;

    private ServerCpu(long postmaster, Map<Long, Long> start) {
        this.postmaster = postmaster;
        this.start = start;
    }

    /** Counts every process named {@code postgres} on this machine, whichever server it belongs to. */
    public static ServerCpu start() {
        return new ServerCpu(ANY_SERVER, snapshot(ANY_SERVER));
    }

    /**
     * Counts only the server whose postmaster has process id {@code postmaster}: that process and its children
     * (backends, WAL writer, checkpointer, autovacuum), not another server on the same machine.
     */
    public static ServerCpu start(long postmaster) {
        return new ServerCpu(postmaster, snapshot(postmaster));
    }

    /**
     * The process id of the postmaster of the server a backend belongs to: the backend's parent, read from {@code
     * /proc}; -1 when there is no such process here named {@code postgres} (a remote server, not Linux).
     */
    public static long postmasterOf(long backendPid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(backendPid), "stat"));
            int close = stat.lastIndexOf(')');
            if (!stat.substring(stat.indexOf('(') + 1, close).equals("postgres")) {
                return -1;
            }
            // fields after the name: state(3) ppid(4)
            return Long.parseLong(stat.substring(close + 2).split(" ")[1]);
        } catch (IOException | RuntimeException notHere) {
            return -1;
        }
    }

    /** CPU seconds of the postgres processes since {@link #start}, or NaN if unknown. */
    public double seconds() {
        if (start == null) {
            return Double.NaN;
        }
        Map<Long, Long> now = snapshot(postmaster);
        if (now == null) {
            return Double.NaN;
        }
        long ticks = 0;
        for (Map.Entry<Long, Long> e : now.entrySet()) {
            ticks += e.getValue() - start.getOrDefault(e.getKey(), 0L);
        }
        return ticks / TICKS_PER_SECOND;
    }

    private static Map<Long, Long> snapshot(long postmaster) {
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
                            // fields after the name: state(3) ppid(4) ... utime(14) stime(15)
                            String[] f = stat.substring(close + 2).split(" ");
                            long pid = Long.parseLong(p.getFileName().toString());
                            if (postmaster != ANY_SERVER && pid != postmaster && Long.parseLong(f[1]) != postmaster) {
                                return;
                            }
                            ticks.put(pid, Long.parseLong(f[11]) + Long.parseLong(f[12]));
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
