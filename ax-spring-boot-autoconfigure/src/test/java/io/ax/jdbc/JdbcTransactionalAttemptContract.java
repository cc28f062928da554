package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxContext;
import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.Backoff;
import io.ax.core.Durability;
import io.ax.core.InstanceState;
import io.ax.core.InvalidScheduleException;
import io.ax.core.InvalidTaskException;
import io.ax.core.RetryPolicy;
import io.ax.core.ScheduleRequest;
import io.ax.core.TaskDefinition;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.engine.AttemptTransactions;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.test.RecordingExecutor;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * A transactional task's attempt and the record of its success commit together: the handler's rows (written with a
 * {@code JdbcTemplate} on the store's DataSource) are there exactly when the instance is SUCCESS, once, whatever
 * failed, timed out or was taken over before. One subclass per database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcTransactionalAttemptContract {

    private static final String PREFIX = "axta_";
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    // one class instance serves every test: what a test counts on is made afresh before each
    private RecordingExecutor executor;
    private CountDownLatch wrote;
    private CountDownLatch proceed;
    private final AtomicReference<String> idleLimit = new AtomicReference<>();
    private DataSource dataSource;
    private JdbcTemplate db;
    private AxEngine engine;

    abstract TestDatabase database();

    @BeforeAll
    void createSchema() {
        database().migrate(PREFIX);
        dataSource = database().dataSource();
        db = new JdbcTemplate(dataSource);
        db.execute("DROP TABLE IF EXISTS " + PREFIX + "effect");
        db.execute("CREATE TABLE " + PREFIX + "effect (instance_id VARCHAR(64) NOT NULL, attempt INT NOT NULL)");
    }

    @BeforeEach
    void emptyTables() {
        executor = new RecordingExecutor();
        wrote = new CountDownLatch(1);
        proceed = new CountDownLatch(1);
        idleLimit.set(null);
        database().emptyStore(PREFIX);
        db.update("DELETE FROM " + PREFIX + "effect");
    }

    @AfterEach
    void stop() {
        proceed.countDown();
        if (engine != null) {
            engine.stop();
        }
    }

    private AxEngine engine(boolean withTransactions, AxTask... tasks) {
        return engine(
                withTransactions
                        ? new JdbcAttemptTransactions(new DataSourceTransactionManager(dataSource), dataSource)
                        : null,
                tasks);
    }

    private AxEngine engine(AttemptTransactions transactions, AxTask... tasks) {
        var builder = AxEngine.builder()
                .store(new JdbcInstanceStore(dataSource, PREFIX))
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-ta")
                .shutdownAwait(Duration.ofSeconds(2));
        if (transactions != null) {
            builder.transactions(transactions);
        }
        engine = builder.build();
        for (AxTask t : tasks) {
            engine.register(t);
        }
        engine.start();
        return engine;
    }

    private static AxTask.Builder task(String name) {
        return AxTask.builder(name)
                .target("test." + name)
                .transactional(true)
                .timeout(TIMEOUT)
                .retry(new RetryPolicy(1, Backoff.FIXED, Duration.ofMillis(10), Duration.ofMillis(10)));
    }

    /** The handler's own write, on the store's DataSource. */
    private void effect(AxContext ctx) {
        db.update(
                "INSERT INTO " + PREFIX + "effect (instance_id, attempt) VALUES (?, ?)",
                ctx.instanceId(),
                ctx.attempt());
    }

    private List<Integer> effects(String id) {
        return db.queryForList(
                "SELECT attempt FROM " + PREFIX + "effect WHERE instance_id = ? ORDER BY attempt", Integer.class, id);
    }

    private InstanceState state(String id) {
        return engine.find(id).orElseThrow().instance().state();
    }

    private List<InstanceState> trail(String id) {
        return engine.find(id).orElseThrow().auditTrail().stream()
                .map(AuditEntry::to)
                .toList();
    }

    @Test
    void aSuccessCommitsTheHandlersWritesWithIt() {
        executor.when("pay", ctx -> {
            effect(ctx);
            idleLimit.set(currentIdleLimit());
            return AxResult.success("paid");
        });
        engine(true, task("pay").build());
        String id = engine.triggerNow("pay");

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(effects(id)).containsExactly(1);
        assertThat(engine.find(id)
                        .orElseThrow()
                        .auditTrail()
                        .get(trail(id).size() - 1)
                        .reason())
                .isEqualTo("paid");
        String expected = expectedIdleLimit();
        if (expected != null) {
            assertThat(idleLimit.get())
                    .as("the transaction's idle limit, the task's timeout")
                    .isEqualTo(expected);
        }
    }

    @Test
    void aFailureThrownOrReturnedRollsTheHandlersWritesBackAndTheRetryWritesOnce() {
        executor.when("thrown", ctx -> {
            effect(ctx);
            if (ctx.attempt() == 1) {
                throw new IllegalStateException("the ledger is locked");
            }
            return AxResult.success();
        });
        executor.when("returned", ctx -> {
            effect(ctx);
            return ctx.attempt() == 1 ? AxResult.failure("try again") : AxResult.success();
        });
        engine(true, task("thrown").build(), task("returned").build());
        String thrown = engine.triggerNow("thrown");
        String returned = engine.triggerNow("returned");

        await().atMost(BOUND)
                .until(() -> state(thrown) == InstanceState.SUCCESS && state(returned) == InstanceState.SUCCESS);
        assertThat(effects(thrown)).as("only the second attempt's write").containsExactly(2);
        assertThat(effects(returned)).as("only the second attempt's write").containsExactly(2);
        assertThat(trail(thrown)).contains(InstanceState.FAILED, InstanceState.RETRYING, InstanceState.SUCCESS);
    }

    @Test
    void anAttemptThatOverrunsItsTimeoutLeavesNothingBehind() {
        executor.when("slow", ctx -> {
            effect(ctx);
            // until the timeout interrupts it (the bound only keeps a broken timeout from hanging the test)
            new CountDownLatch(1).await(TIMEOUT.multipliedBy(10).toMillis(), TimeUnit.MILLISECONDS);
            return AxResult.success();
        });
        engine(true, task("slow").retry(RetryPolicy.none()).build());
        String id = engine.triggerNow("slow");

        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(trail(id)).contains(InstanceState.TIMEOUT);
        await().during(Duration.ofMillis(300))
                .atMost(BOUND)
                .until(() -> effects(id).isEmpty());
    }

    @Test
    void anInstanceTakenOverBeforeTheCommitKeepsItsNewOwnerAndNoneOfTheWrites() throws InterruptedException {
        executor.when("ship", ctx -> {
            effect(ctx);
            wrote.countDown();
            proceed.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            return AxResult.success();
        });
        engine(true, task("ship").build());
        // another node, alive (its heartbeat goes on), so that this one leaves what it owns alone
        JdbcNodeRegistry registry = new JdbcNodeRegistry(dataSource, PREFIX);
        registry.register(
                new NodeInfo("node-b", "b1", "elsewhere", Instant.now(), Set.of("default"), 4), Duration.ofMinutes(1));
        ScheduledExecutorService heart = Executors.newSingleThreadScheduledExecutor();
        try {
            heart.scheduleWithFixedDelay(() -> registry.heartbeat("node-b", "b1", 4), 0, 100, TimeUnit.MILLISECONDS);
            await().atMost(BOUND)
                    .until(() -> engine.status().cluster().liveNodes().contains("node-b"));
            String id = engine.triggerNow("ship");
            assertThat(wrote.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

            // that node takes the attempt over (as a takeover does, on its own connection) while the handler runs
            assertThat(db.update("UPDATE " + PREFIX + "instance SET owner = 'node-b' WHERE id = ?", id))
                    .isEqualTo(1);
            proceed.countDown();
            takenOver(id);
        } finally {
            heart.shutdownNow();
        }
    }

    private void takenOver(String id) {
        await().atMost(BOUND)
                .until(() ->
                        executor.runsOf("ship").size() == 1 && engine.status().executing() == 0);
        await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> state(id) == InstanceState.RUNNING);
        assertThat(effects(id))
                .as("the handler's write, rolled back with the success that did not apply")
                .isEmpty();
        assertThat(db.queryForObject("SELECT owner FROM " + PREFIX + "instance WHERE id = ?", String.class, id))
                .isEqualTo("node-b");
    }

    /** A commit whose answer is lost: the transactions below, and then a failure as if the connection broke. */
    private AttemptTransactions commitAnswerLost(boolean committed) {
        AttemptTransactions real =
                new JdbcAttemptTransactions(new DataSourceTransactionManager(dataSource), dataSource);
        AtomicReference<Boolean> once = new AtomicReference<>(true);
        return new AttemptTransactions() {
            @Override
            public <T> T inTransaction(Duration idle, Work<T> work) throws Exception {
                if (!once.getAndSet(false)) {
                    return real.inTransaction(idle, work);
                }
                if (committed) {
                    real.inTransaction(idle, work);
                } else {
                    try {
                        real.inTransaction(idle, () -> {
                            work.run();
                            throw new IllegalStateException("rolled back under the commit");
                        });
                    } catch (IllegalStateException rolledBack) {
                        // as the database did, unseen by the node
                    }
                }
                throw new java.sql.SQLException("I/O error: connection reset during commit", "08006");
            }
        };
    }

    @Test
    void aCommitWhoseAnswerIsLostButThatCommittedIsASuccessOnce() {
        executor.when("pay", ctx -> {
            effect(ctx);
            return AxResult.success();
        });
        engine(commitAnswerLost(true), task("pay").build());
        String id = engine.triggerNow("pay");

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        await().during(Duration.ofMillis(300))
                .atMost(BOUND)
                .until(() -> executor.runsOf("pay").size() == 1);
        assertThat(effects(id)).containsExactly(1);
        assertThat(trail(id)).doesNotContain(InstanceState.FAILED);
    }

    @Test
    void aCommitWhoseAnswerIsLostAndThatRolledBackIsAFailedAttemptRetriedOnce() {
        executor.when("pay", ctx -> {
            effect(ctx);
            return AxResult.success();
        });
        engine(commitAnswerLost(false), task("pay").build());
        String id = engine.triggerNow("pay");

        await().atMost(BOUND).until(() -> state(id) == InstanceState.SUCCESS);
        assertThat(effects(id)).as("the second attempt's write only").containsExactly(2);
        assertThat(trail(id)).contains(InstanceState.FAILED, InstanceState.RETRYING);
        assertThat(engine.find(id).orElseThrow().auditTrail().stream()
                        .filter(a -> a.to() == InstanceState.FAILED)
                        .findFirst()
                        .orElseThrow()
                        .reason())
                .contains("the commit of its transaction failed");
    }

    @Test
    void aTransactionalTaskNeedsTheStoresTransactionsAndItsInstancesInTheStore() {
        engine((AttemptTransactions) null);
        assertThatThrownBy(() -> engine.register(task("pay").build()))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("attribute 'transactional'")
                .hasMessageContaining("needs a JDBC store and a transaction manager on the store's DataSource");
        engine.stop();

        engine(true, task("pay").build());
        assertThatThrownBy(() -> engine.register(
                        task("memo").durability(Durability.MEMORY).build()))
                .isInstanceOf(InvalidTaskException.class)
                .hasMessageContaining("make it PERSISTENT");
        assertThatThrownBy(() -> engine.scheduleAll(
                        List.of(ScheduleRequest.of("pay").after(Duration.ZERO).durability(Durability.MEMORY))))
                .isInstanceOf(InvalidScheduleException.class)
                .hasMessageContaining("schedule it PERSISTENT");
    }

    @Test
    void aNodeWithoutTransactionsFailsATransactionalAttemptRatherThanRunItUnguarded() {
        executor.when("pay", ctx -> {
            effect(ctx);
            return AxResult.success();
        });
        // a runtime task defined on a node that has the transactions, stored for every node
        engine(true);
        engine.register(TaskDefinition.of(task("pay").build()));
        engine.stop();
        // a node without them learns the definition from the store
        engine((AttemptTransactions) null);
        assertThat(engine.task("pay")).map(AxTask::transactional).contains(true);
        String id = engine.triggerNow("pay");

        await().atMost(BOUND).until(() -> state(id) == InstanceState.DEAD);
        assertThat(executor.runsOf("pay")).as("the handler never ran").isEmpty();
        assertThat(effects(id)).isEmpty();
        assertThat(engine.find(id).orElseThrow().auditTrail().stream()
                        .filter(a -> a.to() == InstanceState.FAILED)
                        .findFirst()
                        .orElseThrow()
                        .reason())
                .contains("is transactional, and node node-ta has no transactions");
    }

    /** The database's idle limit of the current transaction, as the handler sees it; null where there is none. */
    private String currentIdleLimit() {
        return switch (database()) {
            case POSTGRESQL -> db.queryForObject("SHOW idle_in_transaction_session_timeout", String.class);
            case MARIADB -> String.valueOf(db.queryForObject("SELECT @@session.idle_transaction_timeout", Long.class));
            case H2 -> null;
        };
    }

    /** The idle limit a transactional attempt of TIMEOUT should see. */
    private String expectedIdleLimit() {
        return switch (database()) {
            case POSTGRESQL -> TIMEOUT.toSeconds() + "s"; // PostgreSQL shows whole seconds as such
            case MARIADB -> String.valueOf(TIMEOUT.toSeconds());
            case H2 -> null;
        };
    }
}
