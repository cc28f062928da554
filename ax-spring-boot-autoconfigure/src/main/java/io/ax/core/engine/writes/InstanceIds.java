package io.ax.core.engine.writes;

import io.ax.core.Durability;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Makes instance ids: UUIDs whose first 48 bits are the creation time in milliseconds (like UUID version 7), so
 * ids sort roughly by age and database indexes stay compact, and whose other bits are random.
 */
public final class InstanceIds {

    public static final char MEMORY_PREFIX = 'm';

    private InstanceIds() {}

    /** An id for an instance of that durability: a MEMORY instance's id starts with {@code m}, never a hex digit. */
    public static String next(Durability durability, Instant now) {
        String id = next(now);
        return durability == Durability.MEMORY ? MEMORY_PREFIX + id.replace("-", "") : id;
    }

    /** Whether an id is that of a MEMORY instance, which lives only in this process. */
    public static boolean isMemory(String id) {
        return !id.isEmpty() && id.charAt(0) == MEMORY_PREFIX;
    }

    /** The longest id AX makes (a UUID), and the width of the stores' id columns. */
    public static final int MAX_LENGTH = 36;

    /**
     * Whether {@code id} could be an instance id: 1 to {@value #MAX_LENGTH} printable ASCII characters. One that
     * cannot is unknown without asking a store, which might answer garbage (a NUL character, a megabyte of text)
     * with an error of its own rather than "no such row".
     */
    public static boolean isWellFormed(String id) {
        if (id.isEmpty() || id.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c <= ' ' || c > '~') {
                return false;
            }
        }
        return true;
    }

    public static String next(Instant now) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long millis = now.toEpochMilli();
        long high = (millis << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }
}
