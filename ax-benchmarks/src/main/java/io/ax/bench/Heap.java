package io.ax.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Heap readings for the "bytes per pending entry" rows: used heap after full collections, taken the same way in
 * every scenario so their figures compare.
 */
public final class Heap {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private Heap() {}

    /**
     * Used heap after a full collection: the smallest of three readings, each after {@link System#gc()}. A single
     * reading can still include garbage a concurrent phase had not reclaimed yet.
     */
    public static long usedAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /** One collection, so that the garbage of an earlier round does not land in the next round's measurements. */
    public static void settle() throws InterruptedException {
        System.gc();
        Thread.sleep(50);
    }
}
