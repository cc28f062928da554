package io.ax.faults.check;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Times as the checker prints them: UTC, to the millisecond. */
final class Times {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private Times() {}

    static String of(long micros) {
        if (micros == Long.MAX_VALUE) {
            return "never";
        }
        return FORMAT.format(Instant.ofEpochSecond(0, micros * 1_000));
    }

    static String millis(long micros) {
        return (micros / 1_000) + " ms";
    }
}
