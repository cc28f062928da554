package io.ax.bench.failover;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.ax.core.cluster.ClusterSettings;
import io.ax.jdbc.JdbcSchema;
import io.ax.test.pg.PostgresPair;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One round: a private PostgreSQL primary and standby, {@code nodes} engines on its multi-host URL running a series
 * and a stream of delayed instances, then the primary killed and the standby promoted, in one of three modes; what
 * the nodes did is read from their handlers' log (the store may have lost its last commits) and what the new primary
 * holds afterwards.
 */
final class FailoverRound {

    /** How the standby stands when the primary dies. */
    enum Mode {
        /** Synchronous replication: every commit the nodes saw is on the standby. */
        SYNC("synchronous"),
        /** Asynchronous replication, the standby caught up at the kill. */
        ASYNC("asynchronous, caught up"),
        /** Asynchronous replication, the standby cut off {@code lag} before the kill: the new primary lacks those commits. */
        LAGGING("asynchronous, lagging");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    /**
     * What one round measured; times in ms from the kill of the primary.
     *
     * @param recoveryMs the first handler start after the promotion (a claim on the new primary)
     * @param troubleFromMs when a node first said DOWN for its store (away, refusing, or fenced after a loss)
     * @param reportedMs when a node first reported that its store went back in time; NaN when none did
     * @param ranTwiceReported of {@code ranTwice}, those whose first run's instance a node listed as affected
     * @param stuckRunning rows still RUNNING on the new primary once {@code settle} has passed (no node runs them)
     * @param noneRunningMs when the new primary first held no RUNNING row, looked at after the watch and the drain
     */
    record Result(
            Mode mode,
            double recoveryMs,
            double failoverMs,
            double troubleFromMs,
            double troubleToMs,
            double reportedMs,
            long lostCommitsBytes,
            int acknowledged,
            int neverStarted,
            int ranTwice,
            int ranTwiceReported,
            boolean seriesStopped,
            long stuckRunning,
            double noneRunningMs,
            long scheduleFailures) {}

    private final FailoverSettings settings;

    FailoverRound(FailoverSettings settings) {
        this.settings = settings;
    }

    Result run(Mode mode) throws Exception {
        PostgresPair.Replication replication =
                mode == Mode.SYNC ? PostgresPair.Replication.SYNCHRONOUS : PostgresPair.Replication.ASYNCHRONOUS;
        try (PostgresPair pair = PostgresPair.start(replication)) {
            try (HikariDataSource admin = pool(pair.jdbcUrl(pair.primaryPort()), pair.user(), "failover-admin")) {
                JdbcSchema.migrate(admin, "ax_");
            }
            FailoverLog log = new FailoverLog();
            List<FailoverNode> nodes = new ArrayList<>();
            ClusterSettings cluster = ClusterSettings.defaults();
            try {
                for (int i = 0; i < settings.nodes(); i++) {
                    nodes.add(FailoverNode.start(
                            "n" + (i + 1),
                            pair.jdbcUrl(settings.hostRecheck()),
                            pair.user(),
                            cluster,
                            settings.rate(),
                            log));
                }
                int partitions = cluster.partitions();
                if (!await(
                        () -> nodes.stream().mapToInt(FailoverNode::deciding).sum() == partitions,
                        Duration.ofSeconds(60))) {
                    throw new IllegalStateException("the nodes did not share the partitions within 60 s");
                }
                AtomicBoolean producing = new AtomicBoolean(true);
                AtomicLong failures = new AtomicLong();
                Thread producer = new Thread(
                        () -> {
                            long every = 1_000_000_000L / settings.delayedPerSecond();
                            long next = System.nanoTime();
                            int i = 0;
                            while (producing.get()) {
                                FailoverNode node = nodes.get(i++ % nodes.size());
                                try {
                                    log.acknowledged(node.engine().schedule(FailoverNode.JOB, Duration.ZERO, null));
                                } catch (RuntimeException e) {
                                    failures.incrementAndGet(); // refused while the store is away: the caller knows
                                }
                                next += every;
                                LockSupport.parkNanos(next - System.nanoTime());
                            }
                        },
                        "failover-producer");
                producer.start();
                sleep(settings.warm());
                if (mode == Mode.LAGGING) {
                    pair.detachStandby();
                    sleep(settings.lag());
                } else if (mode == Mode.ASYNC) {
                    pair.awaitStandbyCaughtUp();
                }
                long lostBytes = mode == Mode.LAGGING ? pair.standbyLagBytes() : 0;
                Instant killedAt = Instant.now();
                long killed = System.nanoTime();
                TroubleWatch trouble = new TroubleWatch(nodes, killed);
                pair.failover();
                long promoted = System.nanoTime();
                double failoverMs = (promoted - killed) / 1e6;
                long end = System.nanoTime() + settings.after().toNanos();
                while (System.nanoTime() - end < 0) {
                    trouble.look();
                    LockSupport.parkNanos(20_000_000L);
                }
                producing.set(false);
                producer.join(10_000);
                // every instance acknowledged before the producer stopped gets a few seconds to start
                await(() -> log.neverStarted().isEmpty(), settings.drain());
                long tickStartsLate = log.startsAfter(FailoverNode.TICK, System.nanoTime() - 5_000_000_000L);
                long recovery = log.firstStartAfter(promoted);
                Set<String> affected = new HashSet<>();
                Instant reported = null;
                for (FailoverNode n : nodes) {
                    var event = n.regression().orElse(null);
                    if (event != null) {
                        affected.addAll(event.affectedInstances());
                        if (reported == null || event.detectedAt().isBefore(reported)) {
                            reported = event.detectedAt();
                        }
                    }
                }
                Set<String> twice = log.ranTwice();
                for (FailoverLog.Start st : log.starts()) {
                    if (twice.contains(st.instanceId()) && !affected.contains(st.instanceId())) {
                        StoreFailoverScenario.log(
                                "run twice, not listed: %s %s (fire %s) first started on %s %.0f ms from the kill",
                                st.task(), st.instanceId(), st.scheduled(), st.node(), (st.nanos() - killed) / 1e6);
                    }
                }
                // rows the new primary says RUNNING that no node runs (their ends or claims were lost) are moved on
                // by their nodes' reconciliation: how long until none is left, from the kill
                long stuck;
                double settledMs = Double.NaN;
                try (HikariDataSource db = pool(pair.jdbcUrl(pair.primaryPort()), pair.user(), "failover-check")) {
                    JdbcTemplate jdbc = new JdbcTemplate(db);
                    long until = System.nanoTime() + settings.settle().toNanos();
                    while (true) {
                        Long n = jdbc.queryForObject(
                                "SELECT COUNT(*) FROM ax_instance WHERE state = 'RUNNING'", Long.class);
                        stuck = n == null ? 0 : n;
                        if (stuck == 0) {
                            settledMs = (System.nanoTime() - killed) / 1e6;
                            break;
                        }
                        if (System.nanoTime() - until > 0) {
                            break;
                        }
                        LockSupport.parkNanos(250_000_000L);
                    }
                }
                return new Result(
                        mode,
                        recovery < 0 ? Double.NaN : (recovery - killed) / 1e6,
                        failoverMs,
                        trouble.fromMs(),
                        trouble.toMs(),
                        reported == null
                                ? Double.NaN
                                : Duration.between(killedAt, reported).toNanos() / 1e6,
                        lostBytes,
                        log.acknowledgedCount(),
                        log.neverStarted().size(),
                        twice.size(),
                        (int) twice.stream().filter(affected::contains).count(),
                        tickStartsLate == 0,
                        stuck,
                        settledMs,
                        failures.get());
            } finally {
                for (FailoverNode n : nodes) {
                    try {
                        n.close();
                    } catch (RuntimeException e) {
                        StoreFailoverScenario.log("node %s did not stop cleanly: %s", n.id(), e);
                    }
                }
            }
        }
    }

    /** When the nodes first and last said their store was away (unreachable or refusing writes), after the kill. */
    private static final class TroubleWatch {
        private final List<FailoverNode> nodes;
        private final long since;
        private long first = -1;
        private long last = -1;

        TroubleWatch(List<FailoverNode> nodes, long since) {
            this.nodes = nodes;
            this.since = since;
        }

        void look() {
            boolean any = nodes.stream().anyMatch(FailoverNode::storeTrouble);
            if (any) {
                long now = System.nanoTime();
                if (first < 0) {
                    first = now;
                }
                last = now;
            }
        }

        double fromMs() {
            return first < 0 ? Double.NaN : (first - since) / 1e6;
        }

        double toMs() {
            return last < 0 ? Double.NaN : (last - since) / 1e6;
        }
    }

    private static HikariDataSource pool(String url, String user, String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setMaximumPoolSize(2);
        config.setConnectionTimeout(5_000);
        config.setPoolName(name);
        return new HikariDataSource(config);
    }

    private static boolean await(BooleanSupplier condition, Duration bound) {
        long end = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            LockSupport.parkNanos(50_000_000L);
        }
        return true;
    }

    private static void sleep(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis());
    }
}
