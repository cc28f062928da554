package io.ax.executor;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Keeps the first {@code limit} bytes of a stream of output and counts the rest, which it drops: a chatty server or
 * script costs a bounded amount of memory. Not thread-safe: one reader feeds it, then {@link #text()} reads it.
 */
final class BoundedCapture {

    private final byte[] kept;
    private int size;
    private long total;

    BoundedCapture(int limit) {
        this.kept = new byte[Math.max(0, limit)];
    }

    void add(ByteBuffer buffer) {
        int n = buffer.remaining();
        total += n;
        int take = Math.min(n, kept.length - size);
        if (take > 0) {
            buffer.get(kept, size, take);
            size += take;
        }
    }

    void add(byte[] bytes, int offset, int length) {
        add(ByteBuffer.wrap(bytes, offset, length));
    }

    /** Every byte seen, kept or dropped. */
    long total() {
        return total;
    }

    long dropped() {
        return total - size;
    }

    /** The kept bytes as UTF-8 (a character cut at the limit shows as a replacement character). */
    String text() {
        return new String(Arrays.copyOf(kept, size), StandardCharsets.UTF_8);
    }

    /** For a note: {@code name (N bytes): text}, or {@code name (N bytes, M dropped): text}. */
    String describe(String name) {
        String counts = dropped() > 0 ? total + " bytes, first " + size + " kept" : total + " bytes";
        return name + " (" + counts + ")" + (size > 0 ? ": " + text() : "");
    }
}
