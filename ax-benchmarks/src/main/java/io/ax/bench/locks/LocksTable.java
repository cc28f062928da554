package io.ax.bench.locks;

import io.ax.bench.LoadAverage;
import io.ax.bench.ResultTable;
import io.ax.bench.ResultTable.Better;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The {@code locks} scenario's table: RedisLocks beside redis-benchmark, one row per operation and figure. */
final class LocksTable {

    private LocksTable() {}

    static ResultTable of(LocksScenario.LocksResult r, String host, int port, String prefix) {
        Baselines b = r.baselines();
        ResultTable t = new ResultTable(
                "Redis locks: RedisLocks beside redis-benchmark on the same server",
                List.of(LocksScenario.AX, LocksScenario.BASELINE),
                LocksScenario.AX);
        String threads = r.threads() + " threads";
        phaseRows(t, "acquire (SET NX PX), " + threads, r.acquire(), b.acquire());
        phaseRows(t, "release (compare-and-delete script), " + threads, r.release(), b.release());
        phaseRows(t, "acquire + release, one lock per thread, " + threads, r.cycles(), null);
        t.row(
                "renew (compare-and-extend script), " + LocksScenario.RENEW_THREADS + " renewal threads",
                "1/s",
                Better.HIGHER,
                values(
                        r.renew().perSecond(),
                        b.renew() == null ? null : b.renew().perSecond()));
        t.text(
                "acquires refused / locks lost before release / lost while renewing",
                "count",
                Map.of(
                        LocksScenario.AX,
                        String.format(
                                Locale.ROOT,
                                "%d / %d / %d",
                                r.acquire().refused() + r.cycles().refused(),
                                r.release().refused(),
                                r.renew().lost())));
        double[] load = r.loadAverages();
        t.note(String.format(
                Locale.ROOT,
                "Redis %s:%d (the shared server of this machine), keys under %s, deleted at the end. RedisLocks ="
                        + " AxRedis.locks(ttl, renew) on a Lettuce connection factory as the Redis auto-configuration"
                        + " builds it (one shared connection, command timeout 2 s), called by %d threads: each"
                        + " tryAcquire sends SET NX PX and schedules the lock's renewal and its watch, each close()"
                        + " cancels them and sends the compare-and-delete script (EVALSHA). Acquire: %,d locks per"
                        + " thread, each a name of its own, held until the release phase (lease 120 s, renewal every"
                        + " 60 s, so no renewal runs meanwhile); release: closing them; acquire + release: one lock"
                        + " per thread taken and released %,d times (one call = both). A warm-up of a fifth of each"
                        + " phase ran first. Latencies are per call as the caller sees it.",
                host,
                port,
                prefix,
                r.threads(),
                r.iterations(),
                r.iterations()));
        t.note(String.format(
                Locale.ROOT,
                "Renew: %,d locks held with a lease of 10 s renewed every 1 ms, so RedisLocks' %d renewal threads"
                        + " never rest, for %.1f s; renewals = the compare-and-extend scripts its client completed"
                        + " (counted by a Lettuce CommandLatencyRecorder: %s). This is the most it renews, not a rate"
                        + " asked of it: at the default renewal every 3 s, %,.0f renewals a second would keep about"
                        + " %,.0f locks alive.",
                r.renew().locks(),
                LocksScenario.RENEW_THREADS,
                r.renew().seconds(),
                r.renew().commands(),
                r.renew().perSecond(),
                r.renew().perSecond() * 3));
        if (b.commands().isEmpty()) {
            t.note("redis-benchmark was not on the PATH: no baseline.");
        } else {
            t.note("redis-benchmark (the same server, one request at a time per client, run by the scenario right after"
                    + " RedisLocks): "
                    + b.commands().stream().map(c -> "`" + shell(c) + "`").collect(Collectors.joining("; "))
                    + ". Its scripts are RedisLocks' own, sent with EVAL (RedisLocks sends EVALSHA); its release"
                    + " baseline compares a token that does not match, so it reads but deletes nothing.");
        }
        t.note(String.format(
                Locale.ROOT,
                "Load average (1 min): %.2f before, %.2f after RedisLocks, %.2f after redis-benchmark; this JVM ran"
                        + " at nice %d (redis-benchmark inherits it; the Redis server runs at its own).",
                load[0],
                load[1],
                load[2],
                LoadAverage.niceness()));
        return t;
    }

    /** The command as one would type it: the program by its name, an argument with spaces in double quotes. */
    private static String shell(List<String> command) {
        return Stream.concat(
                        Stream.of(Path.of(command.get(0)).getFileName().toString()),
                        command.subList(1, command.size()).stream().map(a -> a.contains(" ") ? '"' + a + '"' : a))
                .collect(Collectors.joining(" "));
    }

    private static void phaseRows(ResultTable t, String name, LockLoad.Phase p, RedisBenchmark.Result baseline) {
        t.row(
                name + ": calls/s",
                "1/s",
                Better.HIGHER,
                values(p.perSecond(), baseline == null ? null : baseline.perSecond()));
        t.row(name + ": p50", "ms", Better.LOWER, values(p.millis(50), baseline == null ? null : baseline.p50Millis()));
        t.row(name + ": p99", "ms", Better.LOWER, values(p.millis(99), baseline == null ? null : baseline.p99Millis()));
    }

    private static Map<String, Double> values(double ax, Double baseline) {
        Map<String, Double> out = new LinkedHashMap<>();
        out.put(LocksScenario.AX, ax);
        if (baseline != null) {
            out.put(LocksScenario.BASELINE, baseline);
        }
        return out;
    }
}
