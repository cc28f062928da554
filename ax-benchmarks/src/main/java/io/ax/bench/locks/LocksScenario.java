package io.ax.bench.locks;

import io.ax.bench.LoadAverage;
import io.ax.bench.Options;
import io.ax.bench.ResultTable;
import io.ax.bench.Scenario;
import io.ax.core.AxLocks;
import io.ax.redis.AxRedis;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Throughput of AX's Redis locks ({@code AxRedis.locks}, i.e. {@code RedisLocks}) beside Redis's own {@code
 * redis-benchmark} sending the same commands to the same server: acquire ({@code SET NX PX}), release (the
 * compare-and-delete script) and renew (the compare-and-extend script). Options (full / {@code --quick}): {@code
 * --threads} (8), {@code --iterations} per thread (10,000 / 2,000), {@code --renew-locks} held during the renewal
 * window (1,000), {@code --renew-seconds} (10 / 5), {@code --redis-host} (127.0.0.1), {@code --redis-port} (6379),
 * {@code --redis-prefix} (axbench:locks:); every key is under the prefix and deleted at the end.
 */
public final class LocksScenario implements Scenario {

    static final String AX = "RedisLocks";
    static final String BASELINE = "redis-benchmark";
    /** {@code RedisLocks} renews on this many threads (its {@code RENEW_THREADS}). */
    static final int RENEW_THREADS = 2;

    @Override
    public ResultTable run(Options o) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.log.io.ax", "warn");
        int threads = o.getInt("threads", 8, 8);
        int iterations = o.getInt("iterations", 10_000, 2_000);
        int renewLocks = o.getInt("renew-locks", 1_000, 1_000);
        Duration renewWindow = Duration.ofSeconds(o.getInt("renew-seconds", 10, 5));
        String host = o.get("redis-host", "127.0.0.1");
        int port = Integer.parseInt(o.get("redis-port", "6379"));
        String prefix = o.get("redis-prefix", "axbench:locks:");
        double loadBefore = LoadAverage.now();

        CommandCounter counter = new CommandCounter();
        ClientResources resources =
                DefaultClientResources.builder().commandLatencyRecorder(counter).build();
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(host, port),
                LettuceClientConfiguration.builder()
                        .clientResources(resources)
                        .commandTimeout(Duration.ofSeconds(2))
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        redis.afterPropertiesSet();
        LocksResult result;
        try (AxRedis ax = new AxRedis(factory, prefix, Duration.ofSeconds(3));
                LockLoad load = new LockLoad(threads, iterations)) {
            // a lease far longer than a phase, so no renewal runs during acquire and release
            AxLocks held = ax.locks(Duration.ofSeconds(120), Duration.ofSeconds(60));
            int warmUpIterations = Math.max(1, iterations / 5);
            log("warm-up: %d threads x %d of each phase", threads, warmUpIterations);
            try (LockLoad warmUp = new LockLoad(threads, warmUpIterations)) {
                warmUp.acquire(held);
                warmUp.release();
                warmUp.cycles(held);
            }
            LockLoad.Phase acquire = load.acquire(held);
            log("acquire: %,.0f/s", acquire.perSecond());
            LockLoad.Phase release = load.release();
            log("release: %,.0f/s", release.perSecond());
            LockLoad.Phase cycles = load.cycles(held);
            log("acquire + release: %,.0f/s", cycles.perSecond());
            close(held);
            // each held lock due for renewal every millisecond: the renewal threads never rest
            AxLocks renewing = ax.locks(Duration.ofSeconds(10), Duration.ofMillis(1));
            RenewLoad.Result renew;
            try {
                renew = RenewLoad.run(renewing, counter, renewLocks, renewWindow);
            } finally {
                close(renewing);
            }
            log("renew: %,.0f/s (%s)", renew.perSecond(), renew.commands());
            double loadAfterAx = LoadAverage.now();
            Baselines baselines = Baselines.run(RedisBenchmark.find(host, port), redis, prefix, threads, iterations);
            result = new LocksResult(threads, iterations, acquire, release, cycles, renew, baselines, new double[] {
                loadBefore, loadAfterAx, LoadAverage.now()
            });
        } finally {
            long deleted = deleteKeys(redis, prefix);
            log("deleted %d keys under %s", deleted, prefix);
            factory.destroy();
            resources.shutdown();
        }
        return LocksTable.of(result, host, port, prefix);
    }

    /** Everything the run measured, for the table. */
    record LocksResult(
            int threads,
            int iterations,
            LockLoad.Phase acquire,
            LockLoad.Phase release,
            LockLoad.Phase cycles,
            RenewLoad.Result renew,
            Baselines baselines,
            double[] loadAverages) {}

    private static void close(AxLocks locks) {
        if (locks instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("AX's locks did not close", e);
            }
        }
    }

    private static long deleteKeys(StringRedisTemplate redis, String prefix) {
        List<String> keys = new ArrayList<>();
        try (Cursor<String> cursor = redis.scan(
                ScanOptions.scanOptions().match(prefix + "*").count(1_000).build())) {
            cursor.forEachRemaining(keys::add);
        }
        long deleted = 0;
        for (int i = 0; i < keys.size(); i += 1_000) {
            Long n = redis.delete(keys.subList(i, Math.min(keys.size(), i + 1_000)));
            deleted += n == null ? 0 : n;
        }
        return deleted;
    }

    static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[locks] " + format + "%n", args);
    }
}
