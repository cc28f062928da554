package io.ax.bench.failover;

import io.ax.bench.Options;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The options of {@code store-failover}: {@code --rounds} per mode (3; 1 with {@code --quick}), {@code --modes}
 * ({@code sync,async,lagging}), {@code --nodes} (2), {@code --rate-ms} of the series (100), {@code
 * --delayed-per-second} (50), {@code --warm-seconds} before the kill (8), {@code --lag-seconds} the lagging standby
 * misses (3), {@code --after-seconds} watched after the kill (20), {@code --drain-seconds} (10), {@code
 * --settle-seconds} a row left RUNNING may take to be moved on (60), {@code --host-recheck-seconds} of pgjdbc's
 * multi-host URL (1).
 */
record FailoverSettings(
        int rounds,
        List<FailoverRound.Mode> modes,
        int nodes,
        Duration rate,
        int delayedPerSecond,
        Duration warm,
        Duration lag,
        Duration after,
        Duration drain,
        Duration settle,
        Duration hostRecheck) {

    static FailoverSettings of(Options o) {
        List<FailoverRound.Mode> modes = new ArrayList<>();
        for (String m : o.get("modes", "sync,async,lagging").split(",")) {
            String name = m.strip().toUpperCase(Locale.ROOT);
            try {
                modes.add(FailoverRound.Mode.valueOf(name));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--modes takes sync, async and lagging, was '" + m + "'");
            }
        }
        return new FailoverSettings(
                o.getInt("rounds", 3, 1),
                List.copyOf(modes),
                o.getInt("nodes", 2, 2),
                Duration.ofMillis(o.getInt("rate-ms", 100, 100)),
                o.getInt("delayed-per-second", 50, 50),
                Duration.ofSeconds(o.getInt("warm-seconds", 8, 6)),
                Duration.ofSeconds(o.getInt("lag-seconds", 3, 3)),
                Duration.ofSeconds(o.getInt("after-seconds", 20, 15)),
                Duration.ofSeconds(o.getInt("drain-seconds", 10, 10)),
                Duration.ofSeconds(o.getInt("settle-seconds", 60, 60)),
                Duration.ofSeconds(o.getInt("host-recheck-seconds", 1, 1)));
    }
}
