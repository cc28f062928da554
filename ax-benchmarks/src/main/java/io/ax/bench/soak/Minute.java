package io.ax.bench.soak;

import java.util.Locale;

/**
 * One minute's line: the readings at its end, and what the handlers saw during it. Lateness is in ms over the
 * first attempts that started in the minute (recurring and delayed together); NaN when none started. The outage
 * column counts the seconds of the minute the proxy blackholed ({@code +} while one goes on), the engine column the
 * seconds the engine itself reported its store away ({@code AxEngine.storeOutage()}, looked at once a second).
 * Duplicates (work run twice) and forks (a series running twice over, see {@link Runs}) count from the start.
 */
record Minute(
        int minute,
        double heapMb,
        int threads,
        SoakDb.Sizes sizes,
        long fires,
        long delayedRuns,
        double p50,
        double p99,
        double max,
        long outageSeconds,
        boolean outageNow,
        long engineDownSeconds,
        long stuck,
        long duplicates,
        long forks) {

    private static final String COLUMNS = "%4s %8s %7s %9s %9s %6s %7s %7s %8s %8s %8s %7s %9s %5s %4s %5s";

    static String header() {
        return String.format(
                Locale.ROOT,
                COLUMNS,
                "min",
                "heap MB",
                "threads",
                "instances",
                "audit",
                "dead",
                "fires",
                "delayed",
                "p50 ms",
                "p99 ms",
                "max ms",
                "outage",
                "engine",
                "stuck",
                "dups",
                "forks");
    }

    String line() {
        return String.format(
                Locale.ROOT,
                COLUMNS,
                minute,
                String.format(Locale.ROOT, "%.1f", heapMb),
                threads,
                sizes.instances(),
                sizes.audit(),
                sizes.deadLetters(),
                fires,
                delayedRuns,
                String.format(Locale.ROOT, "%.0f", p50),
                String.format(Locale.ROOT, "%.0f", p99),
                String.format(Locale.ROOT, "%.0f", max),
                outageSeconds == 0 && !outageNow ? "-" : outageSeconds + "s" + (outageNow ? "+" : ""),
                engineDownSeconds == 0 ? "up" : "down " + engineDownSeconds + "s",
                stuck,
                duplicates,
                forks);
    }
}
