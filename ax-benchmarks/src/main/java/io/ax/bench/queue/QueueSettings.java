package io.ax.bench.queue;

import io.ax.bench.Options;
import io.ax.bench.Scenario;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The {@code queue} scenario's options (full / {@code --quick}): {@code --jobs} queued per drain (100,000 / 20,000),
 * {@code --warmup} jobs drained first by the same processes, not measured (10,000 / 5,000), {@code --rounds} of each
 * measurement, the sides alternating which goes first (3 / 1), {@code --rate} of the latency rounds (100/s), {@code
 * --latency-seconds} measured (30 / 10) after a warm-up of {@code --latency-warmup} seconds (5 / 3), {@code
 * --concurrency} of each process (24: graphile-worker's {@code concurrentJobs}, AX's pool threads), {@code
 * --max-seconds} a step may take (300), {@code --graphile-dir} where graphile-worker is installed, {@code --sides}
 * which sides run ({@code ax,graphile}; one alone to profile it).
 */
record QueueSettings(
        int jobs,
        int warmup,
        int rounds,
        int rate,
        int latencySeconds,
        int latencyWarmupSeconds,
        int concurrency,
        int maxSeconds,
        Path graphileDir,
        Set<String> sides) {

    static final String AX = "ax";
    static final String GRAPHILE = "graphile";

    static QueueSettings of(Options o) {
        String dir = o.get("graphile-dir", "");
        return new QueueSettings(
                o.getInt("jobs", 100_000, 20_000),
                o.getInt("warmup", 10_000, 5_000),
                o.getInt("rounds", 3, 1),
                o.getInt("rate", 100, 100),
                o.getInt("latency-seconds", 30, 10),
                o.getInt("latency-warmup", 5, 3),
                o.getInt("concurrency", 24, 24),
                o.getInt("max-seconds", 300, 300),
                dir.isEmpty() ? GraphileWorker.defaultDir() : Path.of(dir),
                sides(o.get("sides", AX + "," + GRAPHILE)));
    }

    private static Set<String> sides(String list) {
        Set<String> sides = new LinkedHashSet<>(Arrays.asList(list.split(",")));
        if (sides.isEmpty() || !Set.of(AX, GRAPHILE).containsAll(sides)) {
            throw new Scenario.Refused("--sides takes ax, graphile or both (ax,graphile), got '" + list + "'");
        }
        return sides;
    }
}
