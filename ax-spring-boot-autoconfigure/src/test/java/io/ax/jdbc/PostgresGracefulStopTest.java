package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxExecutor;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.ScheduleRequest;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.engine.PoolSettings;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Every node of a three-node cluster stops at once while attempts run that outlast the shutdown wait (their handler
 * does not even heed the interrupt): no row is left RUNNING, each attempt's fate is in its audit trail as a takeover,
 * and a node that starts afterwards runs them again without waiting for the stopped nodes' leases to lapse.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresGracefulStopTest {

    private static final String PREFIX = "axstop_";
    /** A lease far longer than the test waits for the new node: it must not need one to lapse. */
    private static final ClusterSettings SETTINGS = new ClusterSettings(
                    Duration.ofMillis(200), Duration.ofSeconds(30), Duration.ofMillis(500), Duration.ofMillis(50), 8)
            .withPartitions(16);

    private static final int ATTEMPTS = 6;
    private static final Duration SHUTDOWN_AWAIT = Duration.ofMillis(300);
    private static final Duration BOUND = Duration.ofSeconds(20);

    private final TestDatabase database = TestDatabase.POSTGRESQL;
    private final List<AxEngine> engines = new ArrayList<>();
    /** Released at the end: the stubborn handlers' threads end then. */
    private final CountDownLatch release = new CountDownLatch(1);

    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger ranAfter = new AtomicInteger();
    private JdbcTemplate db;

    @BeforeAll
    void createSchema() {
        database.migrate(PREFIX);
    }

    @BeforeEach
    void emptyTables() {
        database.emptyStore(PREFIX);
        db = new JdbcTemplate(database.dataSource());
    }

    @AfterEach
    void stop() {
        release.countDown();
        engines.forEach(AxEngine::stop);
    }

    @Test
    void aClusterStoppedWhileAttemptsRunLeavesNoneRunningAndANewNodeRunsThemAgainAtOnce() throws Exception {
        List<AxEngine> cluster =
                List.of(start("n1", new Stubborn()), start("n2", new Stubborn()), start("n3", new Stubborn()));
        List<String> ids = IntStream.range(0, ATTEMPTS)
                .mapToObj(i ->
                        cluster.get(i % 3).schedule(ScheduleRequest.of("long").after(Duration.ZERO)))
                .toList();
        await("every attempt runs").atMost(BOUND).until(() -> started.get() == ATTEMPTS);

        ExecutorService stopping = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> stops = new ArrayList<>();
            cluster.forEach(engine -> stops.add(stopping.submit(engine::stop)));
            for (Future<?> stop : stops) {
                stop.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            stopping.shutdownNow();
        }

        assertThat(db.queryForObject(
                        "SELECT COUNT(*) FROM " + PREFIX + "instance WHERE state = 'RUNNING'", Integer.class))
                .as("no row RUNNING once every node stopped")
                .isZero();
        for (String id : ids) {
            assertThat(new JdbcInstanceStore(database.dataSource(), PREFIX).auditTrail(id))
                    .extracting(AuditEntry::reason)
                    .as("the fate of " + id)
                    .anyMatch(r -> r.startsWith(AuditEntry.TAKEOVER) && r.contains("shutdown wait"));
        }

        long since = System.nanoTime();
        start("n4", new Quick());
        await("a node that starts later runs them again, well within a lease")
                .atMost(Duration.ofSeconds(10))
                .until(() -> db.queryForObject(
                                "SELECT COUNT(*) FROM " + PREFIX + "instance WHERE state = 'SUCCESS'", Integer.class)
                        == ATTEMPTS);
        assertThat(ranAfter.get()).isEqualTo(ATTEMPTS);
        System.out.println("After the whole cluster stopped, a new node ran the " + ATTEMPTS + " attempts again in "
                + (System.nanoTime() - since) / 1_000_000 + " ms (lease " + SETTINGS.lease() + ")");
    }

    private AxEngine start(String node, AxExecutor executor) {
        AxEngine engine = AxEngine.builder()
                .store(new JdbcInstanceStore(database.dataSource(), PREFIX))
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId(node)
                .clusterSettings(SETTINGS)
                .shutdownAwait(SHUTDOWN_AWAIT)
                .defaultPool(new PoolSettings(ATTEMPTS, 100))
                .build();
        engine.register(AxTask.builder("long")
                .target("test.long")
                .timeout(Duration.ofMinutes(1))
                .build());
        engine.start();
        engines.add(engine);
        return engine;
    }

    /** Runs until the test ends, deaf to interrupts, as a handler blocked in a call without a timeout would. */
    private final class Stubborn implements AxExecutor {
        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            started.incrementAndGet();
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (release.getCount() > 0 && System.nanoTime() < deadline) {
                try {
                    release.await(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException ignored) {
                    // deaf to it, on purpose
                }
            }
            return AxResult.success();
        }
    }

    private final class Quick implements AxExecutor {
        @Override
        public boolean matchTaskType(String type) {
            return AxTask.LOCAL.equals(type);
        }

        @Override
        public AxResult execute(AxTask task, AxContext context) {
            ranAfter.incrementAndGet();
            return AxResult.success();
        }
    }
}
