package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Durability;
import io.ax.core.InstanceDetails;
import io.ax.core.InstanceState;
import io.ax.core.ScheduleRequest;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code AxScheduler} inside a Spring transaction on the store's DataSource: a schedule, cancel or reschedule commits
 * and rolls back with the caller's work, and the engine learns of it only after the commit. Outside a transaction,
 * or inside one on another DataSource, every call takes effect at once, as before. One subclass per database.
 *
 * <p>The engine leads (its prefetch window is loaded), so an instance due soon would enter its wheel at once were it
 * not for the transaction: {@link io.ax.core.engine.EngineStatus#wheelSize()} tells whether the engine holds anything.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcTransactionalScheduleContract {

    private static final String PREFIX = "axtx_";
    private static final Duration BOUND = Duration.ofSeconds(20);
    /**
     * How late a run may start and still count as on time: the wheel starts it within milliseconds, and only a
     * machine under heavy load makes that seconds.
     */
    private static final Duration ON_TIME = Duration.ofSeconds(5);

    private final RecordingExecutor executor = new RecordingExecutor();
    private final Map<String, Instant> started = new ConcurrentHashMap<>();
    private DataSource dataSource;
    private TransactionTemplate tx;
    private AxEngine engine;

    abstract TestDatabase database();

    @BeforeAll
    void createSchema() {
        database().migrate(PREFIX);
    }

    @BeforeEach
    void startLeadingEngine() {
        JdbcInstanceStore store = database().emptyStore(PREFIX);
        dataSource = database().dataSource();
        tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        executor.when("close", this::record);
        executor.when("memo", this::record);
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-tx")
                .prefetchWindow(Duration.ofSeconds(60))
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        engine.register(AxTask.builder("close").build());
        engine.register(AxTask.builder("memo").durability(Durability.MEMORY).build());
        engine.start();
        await().atMost(BOUND).until(() -> engine.status().cluster().isLeader());
        await().atMost(BOUND).until(() -> engine.status().wheelSize() == 0);
    }

    @AfterEach
    void stopEngine() {
        if (engine != null) {
            engine.stop();
        }
    }

    private AxResult record(AxContext ctx) {
        started.putIfAbsent(ctx.instanceId(), Instant.now());
        return AxResult.success();
    }

    private <T> T committed(Supplier<T> work) {
        return tx.execute(status -> work.get());
    }

    private <T> T rolledBack(Supplier<T> work) {
        return tx.execute(status -> {
            T result = work.get();
            status.setRollbackOnly();
            return result;
        });
    }

    private String close(Duration delay) {
        return engine.schedule("close", delay, null);
    }

    private Optional<InstanceState> state(String id) {
        return engine.find(id).map(d -> d.instance().state());
    }

    private void awaitSuccess(String id) {
        await().atMost(BOUND).until(() -> state(id).equals(Optional.of(InstanceState.SUCCESS)));
    }

    private long runsOf(String id) {
        return executor.runs().stream().filter(c -> c.instanceId().equals(id)).count();
    }

    /** Waits, without sleeping, until {@code time} has passed by {@code margin}. */
    private static void awaitPast(Instant time, Duration margin) {
        await().atMost(BOUND).until(() -> Instant.now().isAfter(time.plus(margin)));
    }

    /** A run of its own after {@code id}'s time: once it ran, the engine had its chance to run {@code id} too. */
    private void awaitWitnessAfter(Instant time) {
        String witness = engine.schedule("close", time.plusMillis(200), null);
        awaitSuccess(witness);
    }

    /** Started on time: not before its due time, and not found late by a sweep. */
    private void assertRanOnTime(String id) {
        awaitSuccess(id);
        Instant due = engine.find(id).orElseThrow().instance().scheduledTime();
        assertThat(started.get(id)).isAfterOrEqualTo(due).isBefore(due.plus(ON_TIME));
        assertThat(runsOf(id)).isEqualTo(1);
    }

    // ---- schedule -------------------------------------------------------------------------------------------

    @Test
    void aScheduleInsideACommittedTransactionRunsOnceAndAKeyUsedTwiceInItIsOneInstance() {
        List<String> ids = committed(() -> List.of(
                engine.schedule(ScheduleRequest.of("close")
                        .after(Duration.ofMillis(300))
                        .key("order-1")),
                engine.schedule(ScheduleRequest.of("close")
                        .after(Duration.ofMillis(300))
                        .key("order-1"))));

        assertThat(ids.get(1)).isEqualTo(ids.get(0));
        assertRanOnTime(ids.get(0));
    }

    @Test
    void aScheduleInsideARolledBackTransactionNeverExistsAndNeverRuns() {
        Instant scheduledAt = Instant.now();
        List<String> ids = rolledBack(() -> {
            String id = engine.schedule(
                    ScheduleRequest.of("close").after(Duration.ofMillis(300)).key("order-2"));
            // inside the transaction it is there, for the transaction only
            assertThat(state(id)).contains(InstanceState.SCHEDULED);
            return List.of(
                    id,
                    engine.schedule(ScheduleRequest.of("close")
                            .after(Duration.ofMillis(300))
                            .key("order-2")));
        });
        String id = ids.get(0);

        assertThat(ids.get(1)).isEqualTo(id);
        assertThat(engine.status().wheelSize())
                .as("nothing in the engine holds it")
                .isZero();
        assertThat(engine.find(id)).isEmpty();
        awaitWitnessAfter(scheduledAt.plusMillis(300));
        assertThat(runsOf(id)).isZero();
        assertThat(engine.find(id)).isEmpty();
        assertThat(engine.store().auditTrail(id)).isEmpty();
        // its key is free again: the next schedule with it is a new instance, and runs
        String again = engine.schedule(
                ScheduleRequest.of("close").after(Duration.ofMillis(100)).key("order-2"));
        assertThat(again).isNotEqualTo(id);
        assertRanOnTime(again);
    }

    @Test
    void theEngineTouchesNothingBeforeTheCommitEvenWhenTheTransactionOutlastsTheDueTime() {
        String id = committed(() -> {
            String scheduled = close(Duration.ofMillis(200));
            assertThat(engine.status().wheelSize())
                    .as("not in the wheel before the commit")
                    .isZero();
            Instant due = engine.find(scheduled).orElseThrow().instance().scheduledTime();
            awaitPast(due, Duration.ofMillis(500));
            // the transaction still open, well past the due time: not in the wheel, not assigned, not run
            assertThat(engine.status().wheelSize()).isZero();
            assertThat(runsOf(scheduled)).isZero();
            assertThat(engine.find(scheduled).orElseThrow().auditTrail())
                    .extracting(AuditEntry::to)
                    .containsExactly(InstanceState.CREATED, InstanceState.SCHEDULED);
            return scheduled;
        });
        Instant committedAt = Instant.now();

        awaitSuccess(id);
        assertThat(started.get(id)).as("run at the commit").isBefore(committedAt.plus(ON_TIME));
        assertThat(runsOf(id)).isEqualTo(1);
        assertThat(engine.find(id).orElseThrow().auditTrail())
                .extracting(AuditEntry::to)
                .containsExactly(
                        InstanceState.CREATED, InstanceState.SCHEDULED, InstanceState.RUNNING, InstanceState.SUCCESS);
    }

    // ---- cancel and reschedule ------------------------------------------------------------------------------

    @Test
    void aCancelInsideARolledBackTransactionLeavesTheInstanceDueAsItWas() {
        String id = close(Duration.ofMillis(1_500));

        assertThat(rolledBack(() -> engine.cancel(id))).isTrue();

        assertThat(state(id)).contains(InstanceState.SCHEDULED);
        assertThat(engine.status().wheelSize()).as("still in the wheel").isEqualTo(1);
        assertRanOnTime(id);
    }

    @Test
    void aCancelInsideACommittedTransactionTakesTheInstanceOutOfTheWheelAtTheCommit() {
        String id = close(Duration.ofMillis(800));
        Instant due = engine.find(id).orElseThrow().instance().scheduledTime();

        committed(() -> {
            assertThat(engine.cancel(id)).isTrue();
            assertThat(engine.status().wheelSize())
                    .as("still in the wheel until the commit")
                    .isEqualTo(1);
            return null;
        });

        assertThat(engine.status().wheelSize()).isZero();
        assertThat(state(id)).contains(InstanceState.CANCELLED);
        awaitWitnessAfter(due);
        assertThat(runsOf(id)).isZero();
    }

    @Test
    void aRescheduleInsideARolledBackTransactionKeepsTheInstanceAtItsTime() {
        String id = close(Duration.ofMillis(1_500));
        Instant due = engine.find(id).orElseThrow().instance().scheduledTime();

        assertThat(rolledBack(() -> engine.reschedule(id, Instant.now().plus(Duration.ofHours(1)))))
                .isTrue();

        assertThat(engine.find(id).orElseThrow().instance().scheduledTime()).isEqualTo(due);
        assertThat(engine.status().wheelSize())
                .as("still in the wheel at its time")
                .isEqualTo(1);
        assertRanOnTime(id);
    }

    @Test
    void aRescheduleInsideACommittedTransactionMovesTheInstance() {
        String id = close(Duration.ofHours(1));
        Instant soon = Instant.now().plusMillis(300).truncatedTo(ChronoUnit.MICROS); // as the store keeps it

        assertThat(committed(() -> engine.reschedule(id, soon))).isTrue();

        assertRanOnTime(id);
        assertThat(engine.find(id).orElseThrow().instance().scheduledTime()).isEqualTo(soon);
    }

    // ---- MEMORY executions ----------------------------------------------------------------------------------

    @Test
    void aMemoryExecutionFollowsTheTransactionToo() {
        Instant scheduledAt = Instant.now();
        String dropped = rolledBack(() -> engine.schedule(
                ScheduleRequest.of("memo").after(Duration.ofMillis(200)).key("memo-1")));
        assertThat(engine.find(dropped)).isEmpty();
        assertThat(engine.status().wheelSize()).isZero();

        String kept = committed(() -> {
            String id = engine.schedule(
                    ScheduleRequest.of("memo").after(Duration.ofMillis(200)).key("memo-1"));
            awaitPast(Instant.now(), Duration.ofMillis(700));
            assertThat(runsOf(id)).as("not before the commit").isZero();
            return id;
        });
        Instant committedAt = Instant.now();

        assertThat(kept).as("its key was free again").isNotEqualTo(dropped);
        awaitSuccess(kept);
        assertThat(started.get(kept)).isBefore(committedAt.plus(ON_TIME));
        awaitWitnessAfter(scheduledAt.plusMillis(200));
        assertThat(runsOf(dropped)).isZero();
        assertThat(runsOf(kept)).isEqualTo(1);
    }

    @Test
    void aMemoryCancelOrRescheduleInsideARolledBackTransactionLeavesTheExecutionAsItWas() {
        String cancelled = engine.schedule(ScheduleRequest.of("memo").after(Duration.ofMillis(1_200)));
        String moved = engine.schedule(ScheduleRequest.of("memo").after(Duration.ofMillis(1_200)));
        Instant due = engine.find(moved).orElseThrow().instance().scheduledTime();

        rolledBack(() -> {
            assertThat(engine.cancel(cancelled)).isTrue();
            assertThat(engine.reschedule(moved, Instant.now().plus(Duration.ofHours(1))))
                    .isTrue();
            return null;
        });

        assertThat(engine.find(moved).orElseThrow().instance().scheduledTime()).isEqualTo(due);
        assertRanOnTime(cancelled);
        assertRanOnTime(moved);
    }

    // ---- no transaction, or another DataSource's --------------------------------------------------------

    @Test
    void outsideATransactionAScheduleEntersTheWheelAtOnce() {
        String id = close(Duration.ofMillis(800));

        assertThat(engine.status().wheelSize()).isEqualTo(1);
        assertRanOnTime(id);
    }

    @Test
    void insideATransactionOnAnotherDataSourceAScheduleTakesEffectAtOnceAndStays() {
        JdbcDataSource other = new JdbcDataSource();
        other.setURL("jdbc:h2:mem:axtx-other;DB_CLOSE_DELAY=-1");
        TransactionTemplate otherTx = new TransactionTemplate(new DataSourceTransactionManager(other));

        String id = otherTx.execute(status -> {
            String scheduled = close(Duration.ofMillis(800));
            assertThat(engine.status().wheelSize()).isEqualTo(1);
            status.setRollbackOnly();
            return scheduled;
        });

        InstanceDetails details = engine.find(id).orElseThrow();
        assertThat(details.instance().state()).isEqualTo(InstanceState.SCHEDULED);
        assertRanOnTime(id);
    }
}
