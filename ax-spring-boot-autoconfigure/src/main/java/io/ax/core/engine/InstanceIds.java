package io.ax.core.engine;

import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Makes instance ids: UUIDs whose first 48 bits are the creation time in milliseconds (like UUID version 7), so
 * ids sort roughly by age and database indexes stay compact, and whose other bits are random.
 */
final class InstanceIds {

    private InstanceIds() {}

    static String next(Instant now) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long millis = now.toEpochMilli();
        long high = (millis << 16) | 0x7000L | (random.nextLong() & 0x0FFFL);
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }
}
