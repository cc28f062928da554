package io.ax.bench.db;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * CPU time of the threads of one system, picked by name: a snapshot at the start of the measured window, the
 * difference at its end. Threads that start during the window count from zero; threads that end during it are
 * lost (the systems measured keep their threads for the whole window).
 */
public final class ThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Predicate<String> names;
    private final Map<Long, Long> start = new HashMap<>();

    private ThreadCpu(Predicate<String> names) {
        this.names = names;
        if (THREADS.isThreadCpuTimeSupported() && !THREADS.isThreadCpuTimeEnabled()) {
            THREADS.setThreadCpuTimeEnabled(true);
        }
    }

    /** Starts counting the threads whose names match. */
    public static ThreadCpu start(Predicate<String> names) {
        ThreadCpu cpu = new ThreadCpu(names);
        cpu.snapshot(cpu.start);
        return cpu;
    }

    /** CPU seconds used by the matching threads since {@link #start}. */
    public double seconds() {
        Map<Long, Long> now = new HashMap<>();
        snapshot(now);
        long nanos = 0;
        for (Map.Entry<Long, Long> e : now.entrySet()) {
            nanos += e.getValue() - start.getOrDefault(e.getKey(), 0L);
        }
        return nanos / 1e9;
    }

    /** The names of the live threads that match, collapsed to their prefixes; for the progress log. */
    public String matchingNames() {
        TreeSet<String> prefixes = new TreeSet<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && names.test(info.getThreadName())) {
                prefixes.add(info.getThreadName().replaceAll("[0-9]+$", "N"));
            }
        }
        return String.join(", ", prefixes);
    }

    private void snapshot(Map<Long, Long> into) {
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && names.test(info.getThreadName())) {
                long cpu = THREADS.getThreadCpuTime(info.getThreadId());
                if (cpu >= 0) {
                    into.put(info.getThreadId(), cpu);
                }
            }
        }
    }
}
