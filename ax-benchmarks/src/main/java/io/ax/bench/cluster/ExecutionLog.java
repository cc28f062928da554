package io.ax.bench.cluster;

import com.sun.management.OperatingSystemMXBean;
import io.ax.bench.db.Probe;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What the no-op handlers of one node saw (in the node's JVM): how many ran, their lateness (through a {@link
 * Probe}), the CPU time of this process, and one key per execution, so that the parent can look for an execution that
 * ran twice across the nodes. A key names what ran: a burst execution's number, or a recurring task's number with the
 * second it was due. Thread-safe.
 */
final class ExecutionLog {

    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final Probe probe = new Probe();
    /** Guarded by this. */
    private long[] keys = new long[1 << 16];
    /** Guarded by this. */
    private int size;

    private volatile long cpuAtCut = OS.getProcessCpuTime();
    /** How long each burst execution works (sleeps, as a handler that waits for I/O): 0 for a no-op. */
    private final long workMillis;

    /** @param workMillis how long each burst execution works, in its handler's thread: 0 for none */
    ExecutionLog(long workMillis) {
        this.workMillis = workMillis;
    }

    /** An execution of {@code key} started now; {@code scheduled} is its fire time, or null when it has none. */
    void executed(long key, Instant scheduled) {
        if (scheduled != null) {
            probe.executed(scheduled);
        } else {
            probe.done();
        }
        synchronized (this) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, keys.length + (keys.length >> 1));
            }
            keys[size++] = key;
        }
        if (scheduled == null && workMillis > 0) {
            try {
                Thread.sleep(workMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    long executions() {
        return probe.executions();
    }

    long early() {
        return probe.early();
    }

    /** Starts a measured window: lateness and CPU are counted from now. */
    void cut() {
        probe.cut();
        cpuAtCut = OS.getProcessCpuTime();
    }

    /** The CPU seconds this JVM used since the last {@link #cut}. */
    double cpuSinceCut() {
        return (OS.getProcessCpuTime() - cpuAtCut) / 1e9;
    }

    /** The lateness recorded since the last cut, compressed and Base64-encoded for one line of the protocol. */
    String latenessSinceCut() {
        Histogram h = probe.cut();
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer, 9);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    static Histogram decodeLateness(String encoded) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
        } catch (java.util.zip.DataFormatException e) {
            throw new IllegalStateException("a node sent a lateness histogram that does not decode", e);
        }
    }

    /** Writes every key so far to {@code file} (big-endian longs); returns how many. */
    int writeKeys(Path file) throws IOException {
        long[] copy;
        synchronized (this) {
            copy = Arrays.copyOf(keys, size);
        }
        try (OutputStream raw = Files.newOutputStream(file);
                DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(raw, 1 << 16))) {
            for (long k : copy) {
                out.writeLong(k);
            }
        }
        return copy.length;
    }

    /**
     * The keys of every file, sorted; a key found twice is an execution that ran twice (on one node or two).
     *
     * @return how many executions were one too many
     */
    static long duplicates(List<Path> files) throws IOException {
        long[] all = new long[1 << 16];
        int n = 0;
        for (Path f : files) {
            try (InputStream raw = Files.newInputStream(f);
                    DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16))) {
                while (true) {
                    long k;
                    try {
                        k = in.readLong();
                    } catch (EOFException end) {
                        break;
                    }
                    if (n == all.length) {
                        all = Arrays.copyOf(all, all.length * 2);
                    }
                    all[n++] = k;
                }
            }
        }
        Arrays.sort(all, 0, n);
        long twice = 0;
        for (int i = 1; i < n; i++) {
            if (all[i] == all[i - 1]) {
                twice++;
            }
        }
        return twice;
    }

    /** The key of a recurring task's fire: the task's number and the second it was due. */
    static long fireKey(int task, Instant scheduled) {
        return ((long) task << 32) | (scheduled.getEpochSecond() & 0xFFFF_FFFFL);
    }

    /** The number at the end of a name such as {@code sec-42} or {@code i-42}; -1 when there is none. */
    static int number(String name) {
        int dash = name.lastIndexOf('-');
        if (dash < 0 || dash == name.length() - 1) {
            return -1;
        }
        try {
            return Integer.parseInt(name.substring(dash + 1));
        } catch (NumberFormatException notOurs) {
            return -1;
        }
    }
}
