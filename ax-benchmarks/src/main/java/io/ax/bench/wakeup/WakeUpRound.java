package io.ax.bench.wakeup;

import com.zaxxer.hikari.HikariDataSource;
import io.ax.bench.LoadAverage;
import io.ax.core.ScheduleRequest;
import io.ax.core.cluster.ClusterSettings;
import io.ax.jdbc.JdbcSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One round of the {@code wakeup} scenario: fresh tables, the nodes started with the round's wake-ups and left to
 * split the partitions between them, then a steady rate of delayed one-shot instances due at once, each scheduled
 * through the first node's public API ({@code schedule}); every instance's handler start is matched with its schedule
 * call. The first {@code warmup} seconds are left out of the latencies; every instance counts for "ran once".
 */
final class WakeUpRound {

    /** How long the nodes may take to split the partitions, and how long the split must hold still. */
    private static final Duration SPLIT_BOUND = Duration.ofSeconds(60);

    private static final Duration SPLIT_STEADY = Duration.ofSeconds(1);

    /**
     * What one round measured.
     *
     * @param split per node, the partitions it owned when the load began
     * @param splitSeconds from the first node's start until the split held still
     * @param redisListeners connections subscribed to the nodes' Redis channel when the load began; -1 without Redis
     * @param scheduleFailures schedule calls that threw
     * @param states the instances' rows by state once the round was over
     * @param loadMin the smallest 1-minute load average read during the round (every second)
     * @param loadMax the largest
     * @param versions the database's product and version, and Redis's where the round used it
     */
    record Result(
            WakeUpSettings.Round round,
            String versions,
            RunLog.Tally tally,
            Map<String, Integer> split,
            double splitSeconds,
            long redisListeners,
            long scheduleFailures,
            Map<String, Long> states,
            double loadMin,
            double loadMax) {

        /** Whether every instance ran, once. */
        boolean clean() {
            return tally.missing() == 0
                    && tally.twice().isEmpty()
                    && tally.unknown() == 0
                    && scheduleFailures == 0
                    && states.keySet().stream().allMatch("SUCCESS"::equals);
        }
    }

    private final WakeUpSettings settings;

    WakeUpRound(WakeUpSettings settings) {
        this.settings = settings;
    }

    Result run(WakeUpSettings.Round round) throws Exception {
        String label = round.column();
        String prefix = round.tablePrefix();
        ClusterSettings cluster = settings.cluster();
        try (HikariDataSource admin = round.database().pool(settings.options(), "wakeup-admin", 2)) {
            Database.dropTables(admin, prefix); // what an interrupted run left (Flyway takes two connections)
            JdbcSchema.migrate(admin, prefix);
            RunLog log = new RunLog();
            List<WakeNode> nodes = new ArrayList<>();
            try {
                long started = System.nanoTime();
                for (int i = 0; i < settings.nodes(); i++) {
                    nodes.add(WakeNode.start(settings, round, Character.toString('a' + i), cluster, log));
                }
                Map<String, Integer> split = awaitSplit(nodes);
                double splitSeconds = (System.nanoTime() - started) / 1e9;
                long listeners = awaitRedis(round, nodes);
                WakeUpScenario.log(
                        "%s: partitions split %s after %.1f s%s; scheduling %d a second on node %s for %d + %d s",
                        label,
                        split,
                        splitSeconds,
                        listeners < 0 ? "" : ", " + listeners + " Redis subscribers",
                        settings.rate(),
                        nodes.get(0).id(),
                        settings.warmup(),
                        settings.seconds());
                Load load = load(nodes.get(0), log);
                double loadMin = Double.MAX_VALUE;
                double loadMax = 0;
                long end = load.endNanos();
                while (System.nanoTime() - end < 0) {
                    sleepUntil(Math.min(end, System.nanoTime() + 1_000_000_000L));
                    double now = LoadAverage.now();
                    loadMin = Math.min(loadMin, now);
                    loadMax = Math.max(loadMax, now);
                }
                load.stop();
                // every instance gets a second and several of the owner's rounds past the last one scheduled
                Duration drain =
                        Duration.ofSeconds(10).plus(cluster.pollInterval().multipliedBy(4));
                if (!await(() -> log.waiting() == 0, drain)) {
                    WakeUpScenario.log("%s: %d instance(s) still not started after %s", label, log.waiting(), drain);
                }
                // a second start of an instance would come after its first: give it the time of a few rounds
                Thread.sleep(
                        Math.max(1_000, cluster.pollInterval().multipliedBy(2).toMillis()));
                RunLog.Tally tally = log.tally(nodes.get(0).id());
                Map<String, Long> states = states(admin, prefix);
                Result r = new Result(
                        round,
                        versions(admin, nodes.get(0)),
                        tally,
                        split,
                        splitSeconds,
                        listeners,
                        load.failures(),
                        states,
                        loadMin == Double.MAX_VALUE ? Double.NaN : loadMin,
                        loadMax);
                WakeUpScenario.log(
                        "%s: other node p50 %.1f p99 %.1f ms (%,d); scheduling node p50 %.1f p99 %.1f ms (%,d);"
                                + " scheduled %,d, handler starts %,d, missing %d, twice %d %s; rows %s; load %.2f-%.2f",
                        label,
                        RunLog.Tally.millis(tally.remote(), 50),
                        RunLog.Tally.millis(tally.remote(), 99),
                        tally.remote().getTotalCount(),
                        RunLog.Tally.millis(tally.local(), 50),
                        RunLog.Tally.millis(tally.local(), 99),
                        tally.local().getTotalCount(),
                        tally.scheduled(),
                        tally.starts(),
                        tally.missing(),
                        tally.twice().size(),
                        tally.twiceSample(),
                        states,
                        r.loadMin(),
                        r.loadMax());
                return r;
            } finally {
                for (int i = nodes.size() - 1; i >= 0; i--) {
                    try {
                        nodes.get(i).close();
                    } catch (RuntimeException e) {
                        WakeUpScenario.log(
                                "%s: node %s did not stop cleanly: %s",
                                label, nodes.get(i).id(), e);
                    }
                }
                if (!settings.keepTables()) {
                    Database.dropTables(admin, prefix);
                }
            }
        }
    }

    /**
     * Waits until every node decides for a share of the partitions, the shares add up to all of them, and they held
     * still for {@link #SPLIT_STEADY}; returns the shares.
     */
    private static Map<String, Integer> awaitSplit(List<WakeNode> nodes) throws InterruptedException {
        long deadline = System.nanoTime() + SPLIT_BOUND.toNanos();
        Map<String, Integer> last = Map.of();
        long steadySince = System.nanoTime();
        while (System.nanoTime() - deadline < 0) {
            Map<String, Integer> now = new TreeMap<>();
            int total = 0;
            for (WakeNode n : nodes) {
                now.put(n.id(), n.decided());
                total += n.decided();
            }
            boolean split = total == nodes.get(0).partitionCount()
                    && now.values().stream().allMatch(c -> c > 0);
            if (!split || !now.equals(last)) {
                last = now;
                steadySince = System.nanoTime();
            } else if (System.nanoTime() - steadySince >= SPLIT_STEADY.toNanos()) {
                return now;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException(
                "the nodes did not split the partitions within " + SPLIT_BOUND + "; last seen " + last);
    }

    /** With Redis: waits until every node's Redis answers and every node listens; the subscribers, or -1. */
    private long awaitRedis(WakeUpSettings.Round round, List<WakeNode> nodes) throws InterruptedException {
        if (round.kind() != Kind.REDIS) {
            return -1;
        }
        String channel = settings.redisPrefix() + round.database().option + ":events";
        boolean up = await(
                () -> nodes.stream().allMatch(WakeNode::redisUp)
                        && nodes.get(0).redisListeners(channel) >= nodes.size(),
                Duration.ofSeconds(20));
        if (!up) {
            throw new IllegalStateException("Redis: the nodes did not all subscribe to " + channel + " within 20 s");
        }
        return nodes.get(0).redisListeners(channel);
    }

    /** The load, started: the warm-up, then the measured window; it stops by itself at the end. */
    private Load load(WakeNode scheduler, RunLog log) {
        ScheduledExecutorService thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "wakeup-load");
            t.setDaemon(true);
            return t;
        });
        long start = System.nanoTime();
        long windowStart = start + TimeUnit.SECONDS.toNanos(settings.warmup());
        long end = windowStart + TimeUnit.SECONDS.toNanos(settings.seconds());
        AtomicLong failures = new AtomicLong();
        ScheduleRequest now = ScheduleRequest.of(WakeNode.TASK).after(Duration.ZERO);
        Runnable one = () -> {
            long call = System.nanoTime();
            if (call - end >= 0) {
                return;
            }
            try {
                String id = scheduler.engine().schedule(now);
                log.scheduled(id, call, System.nanoTime(), call - windowStart >= 0);
            } catch (RuntimeException e) {
                if (failures.incrementAndGet() <= 5) {
                    WakeUpScenario.log("schedule failed: %s", e);
                }
            }
        };
        thread.scheduleAtFixedRate(one, 0, 1_000_000_000L / settings.rate(), TimeUnit.NANOSECONDS);
        return new Load(thread, end, failures);
    }

    /** The load's thread, when it ends, and how many schedule calls threw. */
    private record Load(ScheduledExecutorService thread, long endNanos, AtomicLong failureCount) {

        long failures() {
            return failureCount.get();
        }

        void stop() throws InterruptedException {
            thread.shutdown();
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                thread.shutdownNow();
                WakeUpScenario.log("the load's last schedule call did not return within 10 s");
            }
        }
    }

    private static String versions(HikariDataSource admin, WakeNode node) throws java.sql.SQLException {
        String db;
        try (java.sql.Connection c = admin.getConnection()) {
            var meta = c.getMetaData();
            db = meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion();
        }
        String redis = node.redisVersion();
        return redis == null ? db : db + ", Redis " + redis;
    }

    /** The round's instances by state, as the database holds them. */
    private static Map<String, Long> states(HikariDataSource admin, String prefix) {
        Map<String, Long> out = new TreeMap<>();
        new JdbcTemplate(admin)
                .query(
                        "SELECT state, COUNT(*) FROM " + prefix + "instance WHERE task_name = ? GROUP BY state",
                        rs -> {
                            out.put(rs.getString(1), rs.getLong(2));
                        },
                        WakeNode.TASK);
        return out;
    }

    private static boolean await(BooleanSupplier condition, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long left = nanos - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
