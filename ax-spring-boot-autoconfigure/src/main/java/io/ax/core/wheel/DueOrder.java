package io.ax.core.wheel;

/**
 * Puts the handles of due entries in deadline order, without allocating.
 *
 * <p>The sort is stable, and the wheel collects entries with equal deadlines in schedule order (such entries
 * always share a bucket, and buckets are FIFO), so ties come out in schedule order. Keys are {@code deadline -
 * now}, compared as signed values: all due entries lie within {@code Long.MIN_VALUE} of now, so this is correct
 * across the wrap of {@code System.nanoTime()}.
 */
final class DueOrder {

    private static final int INSERTION_RUN = 32;

    private DueOrder() {}

    /**
     * Sorts {@code handles[0, count)} by {@code deadlines[slot] - nowNanos}, where the slot is a handle's low 32
     * bits.
     *
     * @param scratch at least {@code count} long, overwritten
     */
    static void sort(long[] handles, int count, long[] deadlines, long nowNanos, long[] scratch) {
        if (isSorted(handles, count, deadlines, nowNanos)) {
            return; // the common case: one bucket, scheduled in order
        }
        for (int low = 0; low < count; low += INSERTION_RUN) {
            insertionSort(handles, low, Math.min(low + INSERTION_RUN, count), deadlines, nowNanos);
        }
        long[] from = handles;
        long[] to = scratch;
        for (int width = INSERTION_RUN; width < count; width *= 2) {
            for (int low = 0; low < count; low += 2 * width) {
                int middle = Math.min(low + width, count);
                int high = Math.min(low + 2 * width, count);
                merge(from, to, low, middle, high, deadlines, nowNanos);
            }
            long[] swap = from;
            from = to;
            to = swap;
        }
        if (from != handles) {
            System.arraycopy(from, 0, handles, 0, count);
        }
    }

    private static long key(long handle, long[] deadlines, long nowNanos) {
        return deadlines[(int) handle] - nowNanos;
    }

    private static boolean isSorted(long[] handles, int count, long[] deadlines, long nowNanos) {
        for (int i = 1; i < count; i++) {
            if (key(handles[i - 1], deadlines, nowNanos) > key(handles[i], deadlines, nowNanos)) {
                return false;
            }
        }
        return true;
    }

    private static void insertionSort(long[] handles, int low, int high, long[] deadlines, long nowNanos) {
        for (int i = low + 1; i < high; i++) {
            long moving = handles[i];
            long movingKey = key(moving, deadlines, nowNanos);
            int j = i - 1;
            while (j >= low && key(handles[j], deadlines, nowNanos) > movingKey) {
                handles[j + 1] = handles[j];
                j--;
            }
            handles[j + 1] = moving;
        }
    }

    private static void merge(long[] from, long[] to, int low, int middle, int high, long[] deadlines, long nowNanos) {
        int left = low;
        int right = middle;
        for (int out = low; out < high; out++) {
            boolean takeLeft = right >= high
                    || (left < middle && key(from[left], deadlines, nowNanos) <= key(from[right], deadlines, nowNanos));
            to[out] = takeLeft ? from[left++] : from[right++];
        }
    }
}
