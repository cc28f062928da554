package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxResult;
import io.ax.core.AxStoreRegressionEvent;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.InstanceState;
import io.ax.core.RetryPolicy;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskLimits;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A node whose PostgreSQL went back in time under it (a failover to a standby that had not received the last commits),
 * simulated by changing rows behind the engine's back: whatever the store lost, the node's own work moves on within a
 * bounded time, every series has its next fire, and no permit stays held by finished work.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresLostCommitsTest {

    private static final String PREFIX = "axlost_";
    /** Heartbeat 100 ms, lease 1 s: a node checks its own rows in flight every lease. */
    private static final ClusterSettings FAST = new ClusterSettings(
            Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofMillis(300), Duration.ofMillis(50), 32);
    /** Two looks a lease apart, and the retry: a few leases, with room for a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(15);

    private final TestDatabase database = TestDatabase.POSTGRESQL;
    private final RecordingExecutor executor = new RecordingExecutor();
    private JdbcTemplate db;
    private JdbcInstanceStore store;
    private AxEngine engine;
    private final List<AxStoreRegressionEvent> regressions = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeAll
    void createSchema() {
        database.migrate(PREFIX);
    }

    @BeforeEach
    void emptyTables() {
        executor.reset();
        regressions.clear();
        database.emptyStore(PREFIX);
        db = new JdbcTemplate(database.dataSource());
    }

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    private AxEngine start(AxTask... tasks) {
        store = new JdbcInstanceStore(database.dataSource(), PREFIX);
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("n1")
                .clusterSettings(FAST)
                .reconcileEvery(Duration.ofMillis(200))
                .shutdownAwait(Duration.ofSeconds(2))
                .onStoreRegression(regressions::add)
                .build();
        for (AxTask task : tasks) {
            engine.register(task);
        }
        engine.start();
        return engine;
    }

    private static AxTask.Builder task(String name) {
        return AxTask.builder(name).target("test." + name).timeout(Duration.ofSeconds(20));
    }

    private static RetryPolicy oneRetry() {
        return new RetryPolicy(1, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10));
    }

    private InstanceState state(String id) {
        return InstanceState.valueOf(
                db.queryForObject("SELECT state FROM " + PREFIX + "instance WHERE id = ?", String.class, id));
    }

    @Test
    void aRunningRowItsLiveOwnerDoesNotRunIsRetried() {
        start(task("job").retry(oneRetry()).build());
        String id = engine.schedule(ScheduleRequest.of("job").after(Duration.ZERO));
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);

        // the store says a later attempt runs on n1, which is alive and never claimed it (its claim's outcome was
        // lost to n1, say)
        db.update("UPDATE " + PREFIX + "instance SET state = 'RUNNING', attempt = 2, owner = 'n1' WHERE id = ?", id);

        await().atMost(BOUND).until(() -> executor.runsOf("job").size() == 2 && state(id) == InstanceState.SUCCESS);
        assertThat(store.find(id).orElseThrow().attempt()).isEqualTo(3);
        assertThat(store.auditTrail(id))
                .extracting(AuditEntry::reason)
                .anyMatch(r -> r.contains("does not run attempt 2 though the store says it does"));
    }

    @Test
    void anEndTheStoreLostIsWrittenAgainNotRunAgain() {
        start(task("job").retry(oneRetry()).build());
        String id = engine.schedule(ScheduleRequest.of("job").after(Duration.ZERO));
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);

        // the store lost the end n1 committed: it says attempt 1 still runs on n1, which is alive and runs nothing
        db.update("UPDATE " + PREFIX + "instance SET state = 'RUNNING', owner = 'n1' WHERE id = ?", id);

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(executor.runsOf("job")).as("run once").hasSize(1);
        assertThat(store.find(id).orElseThrow().attempt()).isEqualTo(1);
        assertThat(store.auditTrail(id))
                .extracting(AuditEntry::reason)
                .last()
                .asString()
                .contains("had committed this end, which the store lost; written again");
    }

    @Test
    void anEndWrittenAgainLeavesTheTasksSlotWithTheRunThatGoesOn() throws Exception {
        CountDownLatch secondRuns = new CountDownLatch(1);
        CountDownLatch secondMayEnd = new CountDownLatch(1);
        executor.when("slow", context -> {
            if (executor.runsOf("slow").size() == 2) {
                secondRuns.countDown();
                secondMayEnd.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            }
            return AxResult.success();
        });
        try {
            start(task("slow").build()); // on demand, and its runs must not overlap
            String first = engine.triggerNow("slow");
            await().atMost(BOUND).until(() -> state(first) == InstanceState.SUCCESS);
            String second = engine.triggerNow("slow");
            assertThat(secondRuns.await(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                    .isTrue();

            // the store lost the first run's end while the second runs: n1 writes that end again, and must leave
            // the task's slot with the second run, which goes on
            db.update("UPDATE " + PREFIX + "instance SET state = 'RUNNING', owner = 'n1' WHERE id = ?", first);
            await().atMost(BOUND).until(() -> engine.status().repairedInFlight() == 1);
            assertThat(state(first)).isEqualTo(InstanceState.SUCCESS);

            String third = engine.triggerNow("slow");
            await().atMost(BOUND).until(() -> state(third) != InstanceState.SCHEDULED);
            assertThat(state(third)).as("not started beside the second run").isEqualTo(InstanceState.SKIPPED);
            assertThat(state(second)).isEqualTo(InstanceState.RUNNING);
            assertThat(executor.runsOf("slow")).hasSize(2);
        } finally {
            secondMayEnd.countDown();
        }
    }

    @Test
    void aLossNotFoundBeforeTheNodeStopsIsNamedAsItStops() {
        start(task("job").retry(oneRetry()).build());
        String ran = engine.schedule(ScheduleRequest.of("job").after(Duration.ZERO));
        String later = engine.schedule(ScheduleRequest.of("job").after(Duration.ofHours(1)));
        await().atMost(BOUND).until(() -> state(ran) == InstanceState.SUCCESS);

        // the store lost the later instance n1 wrote (a failover that its heartbeat has not found yet), and n1 stops
        db.update("DELETE FROM " + PREFIX + "instance WHERE id = ?", later);
        engine.stop();

        assertThat(regressions).singleElement().satisfies(event -> {
            assertThat(event.affectedInstances()).containsExactly(later);
            assertThat(event.findings()).singleElement().asString().startsWith("as it stopped, 1 of the");
        });
    }

    @Test
    void aNodeThatStopsWithAllItsChangesInTheStoreSaysNothingOfThem() {
        start(
                task("job").retry(oneRetry()).build(),
                task("flaky").retry(oneRetry()).build());
        executor.when("flaky", context -> context.attempt() == 1 ? AxResult.failure("once") : AxResult.success());
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(engine.schedule(
                    ScheduleRequest.of(i % 2 == 0 ? "job" : "flaky").after(Duration.ZERO)));
        }
        ids.add(engine.schedule(ScheduleRequest.of("job").after(Duration.ofHours(1))));
        await().atMost(BOUND)
                .until(() -> ids.subList(0, 20).stream().allMatch(id -> state(id) == InstanceState.SUCCESS));

        engine.stop();

        assertThat(regressions).as("nothing was lost").isEmpty();
    }

    @Test
    void aRetryTheStoreForgotIsRunAfterItsBackoff() {
        start(task("job").retry(oneRetry()).build());
        String id = engine.schedule(ScheduleRequest.of("job").after(Duration.ZERO));
        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);

        // the store went back to the moment attempt 1 had failed and its retry was decided; the retry's timer is gone
        db.update("UPDATE " + PREFIX + "instance SET state = 'RETRYING', owner = 'n1' WHERE id = ?", id);

        await().atMost(BOUND).until(() -> executor.runsOf("job").size() == 2 && state(id) == InstanceState.SUCCESS);
        assertThat(store.find(id).orElseThrow().attempt()).isEqualTo(2);
    }

    @Test
    void aFixedDelaySeriesWhoseLastRunStaysRunningFiresAgain() {
        start(task("delay")
                .trigger(IntervalTrigger.fixedDelay(Duration.ofMillis(100), Duration.ZERO))
                .build());
        await().atMost(BOUND).until(() -> executor.runsOf("delay").size() >= 3);

        // the store lost the last run's end and its next fire: the series' last row says RUNNING on n1 for good
        db.execute("BEGIN; LOCK TABLE " + PREFIX + "instance;"
                + " DELETE FROM " + PREFIX + "instance WHERE task_name = 'delay'"
                + " AND state IN ('SCHEDULED', 'DISPATCHED', 'RUNNING', 'RETRYING', 'FAILED', 'TIMEOUT');"
                + " UPDATE " + PREFIX + "instance SET state = 'RUNNING', owner = 'n1' WHERE id = (SELECT id FROM "
                + PREFIX + "instance WHERE task_name = 'delay' ORDER BY scheduled_us DESC LIMIT 1); COMMIT");
        int before = executor.runsOf("delay").size();

        await().atMost(BOUND).until(() -> executor.runsOf("delay").size() >= before + 3);
        assertThat(unfinished("delay")).as("one chain, not two").isLessThanOrEqualTo(1);
    }

    @Test
    void aSeriesWhoseNextFireRowVanishedFiresAgain() {
        start(task("pulse")
                .trigger(IntervalTrigger.fixedDelay(Duration.ofMillis(100), Duration.ZERO))
                .build());
        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= 3);

        // every unfinished row of the series is gone: its in-flight run and its next fire
        db.update("DELETE FROM " + PREFIX + "instance WHERE task_name = 'pulse' AND state IN ('SCHEDULED',"
                + " 'DISPATCHED', 'RUNNING', 'RETRYING', 'FAILED', 'TIMEOUT')");
        int before = executor.runsOf("pulse").size();

        await().atMost(BOUND).until(() -> executor.runsOf("pulse").size() >= before + 3);
    }

    @Test
    void aPermitRowOfAFinishedInstanceHoldsNothing() {
        start(task("limited")
                .limits(new TaskLimits(1, null, null))
                .retry(oneRetry())
                .build());
        String first = engine.schedule(ScheduleRequest.of("limited").after(Duration.ZERO));
        await().atMost(BOUND).until(() -> state(first) == InstanceState.SUCCESS);

        // the store kept the permit row of the first run, whose end it has (a release lost with the commits after it)
        db.update(
                "INSERT INTO " + PREFIX + "permit (permit_key, slot, instance_id, attempt, node, acquired_us)"
                        + " VALUES ('task:limited', 0, ?, 1, 'n1', 0) ON CONFLICT DO NOTHING",
                first);
        String second = engine.schedule(ScheduleRequest.of("limited").after(Duration.ZERO));

        await().atMost(BOUND).until(() -> state(second) == InstanceState.SUCCESS);
        assertThat(db.queryForObject(
                        "SELECT COUNT(*) FROM " + PREFIX + "permit WHERE instance_id = ?", Integer.class, first))
                .as("the stale row was taken for the new claim")
                .isZero();
    }

    private int unfinished(String task) {
        return db.queryForObject(
                "SELECT COUNT(*) FROM " + PREFIX + "instance WHERE task_name = ? AND state IN ('SCHEDULED',"
                        + " 'DISPATCHED', 'RUNNING', 'RETRYING')",
                Integer.class,
                task);
    }
}
