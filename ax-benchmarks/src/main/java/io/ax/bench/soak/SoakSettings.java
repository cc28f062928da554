package io.ax.bench.soak;

import io.ax.bench.Options;
import io.ax.jdbc.JdbcSchema;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one soak run does. Durations are written {@code 500ms}, {@code 30s}, {@code 5m} or {@code 1h}.
 *
 * @param minutes how long the workload runs; one line is printed per minute
 * @param outageEvery an outage begins at every multiple of this from the start
 * @param outageFor how long each outage lasts (the proxy blackholes every connection)
 * @param tasks recurring tasks, spread over the kinds of {@link Workload}
 * @param delayedPerSecond one-shot delayed executions scheduled per second
 * @param maxDelay the longest delay of those executions (the shortest is 2 s)
 * @param recoveryBound how long after an outage a task may take, beyond its own period, to fire again; also how
 *     late a delayed execution may run before it counts as lost
 * @param stuckAfter how long an instance may stay DISPATCHED or RUNNING before it counts as stuck
 * @param retention AX's retention of finished instances ({@code ax.retention.finished}); null for {@code off}
 * @param retentionDead AX's retention of DEAD instances and their dead letters ({@code ax.retention.dead})
 * @param threads workers of the engine's default pool
 * @param prefix AX's table prefix; only these tables are dropped and created
 */
record SoakSettings(
        int minutes,
        Duration outageEvery,
        Duration outageFor,
        int tasks,
        int delayedPerSecond,
        Duration maxDelay,
        Duration recoveryBound,
        Duration stuckAfter,
        Duration retention,
        Duration retentionDead,
        int threads,
        String prefix) {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    SoakSettings {
        if (minutes < 1) {
            throw new IllegalArgumentException("--minutes must be at least 1, was " + minutes);
        }
        if (outageFor.compareTo(outageEvery) >= 0) {
            throw new IllegalArgumentException(
                    "--outage-for (" + outageFor + ") must be shorter than --outage-every (" + outageEvery + ")");
        }
        if (tasks < Workload.Kind.values().length) {
            throw new IllegalArgumentException(
                    "--tasks must be at least " + Workload.Kind.values().length + " (one per kind), was " + tasks);
        }
        if (delayedPerSecond < 0 || threads < 1) {
            throw new IllegalArgumentException("--delayed must be >= 0 and --threads >= 1");
        }
        if (maxDelay.compareTo(DelayedStream.MIN_DELAY) <= 0) {
            throw new IllegalArgumentException("--max-delay must be longer than " + DelayedStream.MIN_DELAY);
        }
        JdbcSchema.checkPrefix(prefix);
    }

    /** Defaults: 30 minutes, an outage of 30 s every 5 minutes; {@code --quick}: 3 minutes, every minute. */
    static SoakSettings from(Options o) {
        Duration outageFor = duration(o.get("outage-for", "30s"), "outage-for");
        return new SoakSettings(
                o.getInt("minutes", 30, 3),
                duration(o.get("outage-every", o.quick() ? "1m" : "5m"), "outage-every"),
                outageFor,
                o.getInt("tasks", 100, 100),
                o.getInt("delayed", 20, 20),
                duration(o.get("max-delay", "60s"), "max-delay"),
                duration(o.get("recovery-bound", "30s"), "recovery-bound"),
                // an instance may wait out a whole outage in RUNNING before its outcome can be written
                duration(o.get("stuck-after", outageFor.plusSeconds(30).toSeconds() + "s"), "stuck-after"),
                // short, so that the tables stay bounded within a run of minutes
                o.get("retention", "2m").equals("off") ? null : duration(o.get("retention", "2m"), "retention"),
                duration(o.get("retention-dead", "5m"), "retention-dead"),
                o.getInt("threads", 8, 8),
                o.get("prefix", "axsoak_"));
    }

    Duration run() {
        return Duration.ofMinutes(minutes);
    }

    static Duration duration(String text, String option) {
        Matcher m = DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "--" + option + " must look like 500ms, 30s, 5m or 1h, was '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
