package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.cluster.PartitionLease;
import io.ax.core.store.NewFire;
import io.ax.test.jdbc.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The race a partition's epoch must win, on every database: a deposed owner's write can be on its way (its statement
 * begun, its transaction not committed) while another node takes the partition. A fence that only compares the epoch
 * would let that write commit after the take, unseen by the new owner's first read of the partition. The fence reads
 * the partition's row with a shared lock, so the take waits for every fenced write in flight, and every fenced write
 * that comes after the take reads the new epoch and changes nothing. Without the lock, both cases fail on PostgreSQL
 * and H2 (MariaDB's InnoDB, at its default REPEATABLE READ, locks the rows such a sub-select reads anyway).
 *
 * <p>The store's own writes fenced by their rows' partition ({@link Transition#partitionEpoch()}, {@link
 * NewFire#partitionEpoch()}) are ordered the same way: a change or a fire whose statement runs while a take of its
 * partition is in flight in another transaction either commits before the take, and the new owner sees it, or waits
 * for it and is rejected with a {@link FencedOutException}, changing nothing.
 *
 * <p>Not covered here, and for the engine to bound when it uses the fence: a deposed owner frozen inside an open
 * transaction holds its shared lock, and the take waits until the database ends that session.
 */
class PartitionFenceTest {

    private static final String PREFIX = "axfence_";
    private static final Duration LONG = Duration.ofMinutes(5);
    private static final Duration BOUND = Duration.ofSeconds(10);
    /** How long a take is seen to wait before the fenced write commits: long against a local statement. */
    private static final Duration WAITS = Duration.ofMillis(500);

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aTakeWaitsForAFencedWriteInFlightAndTheNewOwnerSeesIt(TestDatabase database) throws Exception {
        DataSource dataSource = setUp(database);
        JdbcPartitionLeases leases = new JdbcPartitionLeases(dataSource, PREFIX);
        long first = deposedOwnerOfPartitionZero(dataSource, leases);

        try (Connection deposed = dataSource.getConnection()) {
            deposed.setAutoCommit(false);
            assertThat(fencedWrite(deposed, database, first, 1))
                    .as("n1's write, in its open transaction")
                    .isOne();
            CompletableFuture<Optional<PartitionLease>> take =
                    CompletableFuture.supplyAsync(() -> leases.take(0, "n2", "inc-2", LONG));
            await("the take waits for the fenced write in flight")
                    .during(WAITS)
                    .atMost(WAITS.plus(BOUND))
                    .until(() -> !take.isDone());
            deposed.commit();
            PartitionLease taken =
                    take.get(BOUND.toMillis(), TimeUnit.MILLISECONDS).orElseThrow();
            assertThat(taken.epoch()).isEqualTo(first + 1);
        }
        assertThat(probe(dataSource))
                .as("the new owner's first read sees the deposed owner's write")
                .isEqualTo(1);
        try (Connection late = dataSource.getConnection()) {
            assertThat(fencedWrite(late, database, first, 2))
                    .as("a write at the old epoch after the take")
                    .isZero();
        }
        assertThat(probe(dataSource)).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aFencedWriteThatMeetsATakeInFlightWaitsForItAndChangesNothing(TestDatabase database) throws Exception {
        DataSource dataSource = setUp(database);
        JdbcPartitionLeases leases = new JdbcPartitionLeases(dataSource, PREFIX);
        long first = deposedOwnerOfPartitionZero(dataSource, leases);
        ClusterSql sql = new ClusterSql(PREFIX, Vendor.dialectOf(dataSource));

        try (Connection taker = dataSource.getConnection()) {
            taker.setAutoCommit(false);
            try (PreparedStatement take = taker.prepareStatement(sql.takePartition)) {
                take.setString(1, "n2");
                take.setString(2, "inc-2");
                take.setInt(3, 0);
                take.setLong(4, first);
                assertThat(take.executeUpdate())
                        .as("n2's take, in its open transaction")
                        .isOne();
            }
            CompletableFuture<Integer> write = CompletableFuture.supplyAsync(() -> {
                try (Connection deposed = dataSource.getConnection()) {
                    return fencedWrite(deposed, database, first, 1);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            await("the fenced write waits for the take in flight")
                    .during(WAITS)
                    .atMost(WAITS.plus(BOUND))
                    .until(() -> !write.isDone());
            taker.commit();
            assertThat(write.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the deposed owner's write, once the take committed")
                    .isZero();
        }
        assertThat(probe(dataSource)).isZero();
        assertThat(leases.holds(0, "n2", first + 1)).isTrue();
    }

    /**
     * A take waiting for a fenced write in flight holds nothing but its partition's row: the nodes' heartbeats go on.
     * On MariaDB a take that read the node rows in a sub-select of its UPDATE held them shared while it waited, and
     * the heartbeats of live nodes stalled for as long, until they cut themselves off.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aTakeWaitingForAFencedWriteLeavesTheHeartbeatsFree(TestDatabase database) throws Exception {
        DataSource dataSource = setUp(database);
        JdbcPartitionLeases leases = new JdbcPartitionLeases(dataSource, PREFIX);
        JdbcNodeRegistry registry = new JdbcNodeRegistry(dataSource, PREFIX);
        long first = deposedOwnerOfPartitionZero(dataSource, leases);
        ClusterSql sql = new ClusterSql(PREFIX, Vendor.dialectOf(dataSource));
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        ExecutorService heartbeats = Executors.newSingleThreadExecutor();
        try {
            Future<Optional<PartitionLease>> take = inTheDeposedOwnersOpenTransaction(
                    dataSource,
                    () -> assertThat(jdbc.update(
                                    "UPDATE " + PREFIX + "probe SET v = ? WHERE id = 1 AND " + sql.partitionFence,
                                    1,
                                    0,
                                    "n1",
                                    first))
                            .as("n1's write, in its open transaction")
                            .isOne(),
                    () -> leases.take(0, "n2", "inc-2", LONG),
                    () -> assertThat(heartbeats
                                    .submit(() -> registry.heartbeat("n2", "inc-2", 1))
                                    .get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                            .as("the taker's heartbeat while its take waits")
                            .isTrue());
            assertThat(take.get(BOUND.toMillis(), TimeUnit.MILLISECONDS)
                            .orElseThrow()
                            .epoch())
                    .isEqualTo(first + 1);
        } finally {
            heartbeats.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aNodeGivingItsPartitionsUpAsItStopsNeverDeadlocksWithItsOwnLastWrites(TestDatabase database) throws Exception {
        DataSource dataSource = setUp(database);
        JdbcPartitionLeases leases = new JdbcPartitionLeases(dataSource, PREFIX);
        JdbcNodeRegistry registry = new JdbcNodeRegistry(dataSource, PREFIX);
        leases.partitions(2);
        registry.register(node("n1", "inc-1"), LONG);
        long epoch0 = leases.take(0, "n1", "inc-1", LONG).orElseThrow().epoch();
        long epoch1 = leases.take(1, "n1", "inc-1", LONG).orElseThrow().epoch();
        ClusterSql sql = new ClusterSql(PREFIX, Vendor.dialectOf(dataSource));
        String write = "UPDATE " + PREFIX + "probe SET v = v + 1 WHERE id = 1 AND " + sql.partitionFence;
        ExecutorService stopping = Executors.newSingleThreadExecutor();
        try (Connection last = dataSource.getConnection()) {
            // a last write of the node, in flight: fenced by partition 1 first, partition 0 next, as its rows come
            last.setAutoCommit(false);
            assertThat(fenced(last, write, 1, epoch1)).isOne();
            Future<List<Integer>> release = stopping.submit(
                    () -> leases.releaseAll(new java.util.TreeMap<>(java.util.Map.of(0, epoch0, 1, epoch1)), "n1"));
            await("the give-up reaches partition 1, which the write holds")
                    .during(WAITS)
                    .atMost(WAITS.plus(BOUND))
                    .until(() -> !release.isDone());
            // a give-up that held partition 0 while it waited would now close the cycle: the database breaks it
            assertThat(fenced(last, write, 0, epoch0))
                    .as("partition 0 already given up: the write's fence refuses it (a give-up that held it while it"
                            + " waited would deadlock with this write, and the database would abort one of them)")
                    .isZero();
            last.commit();
            assertThat(release.get(BOUND.toMillis(), TimeUnit.MILLISECONDS)).containsExactly(0, 1);
        } finally {
            stopping.shutdownNow();
        }
        assertThat(probe(dataSource)).isEqualTo(1);
    }

    private static int fenced(Connection c, String write, int partition, long epoch) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(write)) {
            s.setInt(1, partition);
            s.setString(2, "n1");
            s.setLong(3, epoch);
            return s.executeUpdate();
        }
    }

    // ---- the store's writes fenced by their rows' partition: one order or the other, never both ---------------------

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aTakeWaitsForAStoresFencedChangeInFlightAndTheNewOwnerSeesIt(TestDatabase database) throws Exception {
        DataSource dataSource = setUp(database);
        JdbcInstanceStore store = storeOfOnePartition(dataSource);
        TaskInstance instance = scheduled();
        store.schedule(List.of(new NewFire(instance, "")));
        JdbcPartitionLeases leases = new JdbcPartitionLeases(dataSource, PREFIX);
        long first = deposedOwnerOfPartitionZero(dataSource, leases);

        Future<Optional<PartitionLease>> take = inTheDeposedOwnersOpenTransaction(
                dataSource,
                () -> assertThat(store.transition(claim(instance).fencedByPartition(first)))
                        .as("n1's change, in its open transaction")
                        .isTrue(),
                () -> leases.take(0, "n2", "inc-2", LONG));

        assertThat(take.get(BOUND.toMillis(), TimeUnit.MILLISECONDS)
                        .orElseThrow()
                        .epoch())
                .isEqualTo(first + 1);
        assertThat(store.find(instance.id()).orElseThrow().state())
                .as("the new owner's first read sees the deposed owner's change")
                .isEqualTo(InstanceState.DISPATCHED);
        assertThatThrownBy(() -> store.transition(move(instance, InstanceState.DISPATCHED, InstanceState.RUNNING)
                        .fencedByPartition(first)))
                .as("a change at the old epoch after the take")
                .isInstanceOfSatisfying(
                        FencedOutException.class, e -> assertThat(e.partition()).isZero());
        assertThat(store.find(instance.id()).orElseThrow().state()).isEqualTo(InstanceState.DISPATCHED);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aStoresFencedChangeThatMeetsATakeInFlightWaitsForItAndIsRejected(TestDatabase database) throws Exception {
        DataSource dataSource = setUp(database);
        JdbcInstanceStore store = storeOfOnePartition(dataSource);
        TaskInstance instance = scheduled();
        store.schedule(List.of(new NewFire(instance, "")));
        long first = deposedOwnerOfPartitionZero(dataSource, new JdbcPartitionLeases(dataSource, PREFIX));

        Future<Boolean> change = whileATakeOfPartitionZeroIsInFlight(
                dataSource, first, () -> store.transition(claim(instance).fencedByPartition(first)));

        assertThatThrownBy(() -> change.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                .as("the deposed owner's change, once the take committed")
                .hasCauseInstanceOf(FencedOutException.class)
                .cause()
                .satisfies(e -> assertThat(((FencedOutException) e).partition()).isZero());
        assertThat(store.find(instance.id()).orElseThrow().state()).isEqualTo(InstanceState.SCHEDULED);
        assertThat(store.auditTrail(instance.id())).hasSize(2);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aTakeWaitsForAStoresFencedFireInFlightAndTheNewOwnerSeesIt(TestDatabase database) throws Exception {
        DataSource dataSource = setUp(database);
        JdbcInstanceStore store = storeOfOnePartition(dataSource);
        JdbcPartitionLeases leases = new JdbcPartitionLeases(dataSource, PREFIX);
        long first = deposedOwnerOfPartitionZero(dataSource, leases);
        TaskInstance instance = scheduled();

        Future<Optional<PartitionLease>> take = inTheDeposedOwnersOpenTransaction(
                dataSource,
                () -> assertThat(store.schedule(List.of(new NewFire(instance, "").fencedByPartition(first))))
                        .as("n1's fire, in its open transaction")
                        .containsExactly(true),
                () -> leases.take(0, "n2", "inc-2", LONG));

        assertThat(take.get(BOUND.toMillis(), TimeUnit.MILLISECONDS)
                        .orElseThrow()
                        .epoch())
                .isEqualTo(first + 1);
        assertThat(store.find(instance.id()))
                .as("the new owner's first read sees the deposed owner's fire")
                .isPresent();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aStoresFencedFireThatMeetsATakeInFlightWaitsForItAndIsNotWritten(TestDatabase database) throws Exception {
        DataSource dataSource = setUp(database);
        JdbcInstanceStore store = storeOfOnePartition(dataSource);
        long first = deposedOwnerOfPartitionZero(dataSource, new JdbcPartitionLeases(dataSource, PREFIX));
        TaskInstance instance = scheduled();

        Future<boolean[]> fire = whileATakeOfPartitionZeroIsInFlight(
                dataSource, first, () -> store.schedule(List.of(new NewFire(instance, "").fencedByPartition(first))));

        assertThatThrownBy(() -> fire.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                .as("the deposed owner's fire, once the take committed")
                .hasCauseInstanceOf(FencedOutException.class);
        assertThat(store.find(instance.id())).isEmpty();
    }

    /**
     * Runs {@code write} in a transaction of the deposed owner's that stays open while {@code take} is seen to wait,
     * then commits it; returns the take, done or about to be.
     */
    private static <T> Future<T> inTheDeposedOwnersOpenTransaction(
            DataSource dataSource, Runnable write, Callable<T> take) throws Exception {
        return inTheDeposedOwnersOpenTransaction(dataSource, write, take, () -> {});
    }

    /** As above, with {@code whileTheTakeWaits} run once the take is seen to wait, before the write commits. */
    private static <T> Future<T> inTheDeposedOwnersOpenTransaction(
            DataSource dataSource, Runnable write, Callable<T> take, ThrowingRunnable whileTheTakeWaits)
            throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch written = new CountDownLatch(1);
            CountDownLatch commit = new CountDownLatch(1);
            Future<?> deposed =
                    threads.submit(() -> new TransactionTemplate(new DataSourceTransactionManager(dataSource))
                            .executeWithoutResult(status -> {
                                write.run();
                                written.countDown();
                                awaitLatch(commit);
                            }));
            assertThat(written.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            Future<T> taking = threads.submit(take);
            await("the take waits for the fenced write in flight")
                    .during(WAITS)
                    .atMost(WAITS.plus(BOUND))
                    .until(() -> !taking.isDone());
            try {
                whileTheTakeWaits.run();
            } finally {
                commit.countDown();
            }
            deposed.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            return taking;
        } finally {
            threads.shutdown();
        }
    }

    /**
     * n2 takes partition 0 in a transaction left open while {@code write} is seen to wait, then commits it; returns
     * the write, done or about to be.
     */
    private static <T> Future<T> whileATakeOfPartitionZeroIsInFlight(
            DataSource dataSource, long first, Callable<T> write) throws Exception {
        ClusterSql sql = new ClusterSql(PREFIX, Vendor.dialectOf(dataSource));
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try (Connection taker = dataSource.getConnection()) {
            taker.setAutoCommit(false);
            try (PreparedStatement take = taker.prepareStatement(sql.takePartition)) {
                take.setString(1, "n2");
                take.setString(2, "inc-2");
                take.setInt(3, 0);
                take.setLong(4, first);
                assertThat(take.executeUpdate())
                        .as("n2's take, in its open transaction")
                        .isOne();
            }
            Future<T> writing = threads.submit(write);
            await("the fenced write waits for the take in flight")
                    .during(WAITS)
                    .atMost(WAITS.plus(BOUND))
                    .until(() -> !writing.isDone());
            taker.commit();
            return writing;
        } finally {
            threads.shutdown();
        }
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** A store on the tables, whose rows are all in partition 0 of 1. */
    private static JdbcInstanceStore storeOfOnePartition(DataSource dataSource) {
        JdbcInstanceStore store = new JdbcInstanceStore(dataSource, PREFIX);
        assertThat(store.partitionLeases().orElseThrow().partitions(1)).isOne();
        return store;
    }

    private static TaskInstance scheduled() {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        return new TaskInstance(UUID.randomUUID().toString(), "job", at, InstanceState.SCHEDULED, 0, "n1", at);
    }

    private static Transition claim(TaskInstance instance) {
        return move(instance, InstanceState.SCHEDULED, InstanceState.DISPATCHED);
    }

    private static Transition move(TaskInstance instance, InstanceState from, InstanceState to) {
        return new Transition(instance.id(), from, to, 1, "n1", instance.updatedAt(), from + " to " + to);
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            if (!latch.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("not released within " + BOUND);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Fresh tables with one probe row; the database is skipped (with the reason) where it cannot be reached. */
    private static DataSource setUp(TestDatabase database) {
        database.migrate(PREFIX);
        DataSource dataSource = database.dataSource();
        database.truncate(PREFIX);
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("DROP TABLE IF EXISTS " + PREFIX + "probe");
        jdbc.execute("CREATE TABLE " + PREFIX + "probe (id INT NOT NULL PRIMARY KEY, v INT NOT NULL)");
        jdbc.update("INSERT INTO " + PREFIX + "probe (id, v) VALUES (1, 0)");
        return dataSource;
    }

    /** n1 takes partition 0 and is then gone from the node registry (dead at once): its epoch. */
    private static long deposedOwnerOfPartitionZero(DataSource dataSource, JdbcPartitionLeases leases) {
        JdbcNodeRegistry registry = new JdbcNodeRegistry(dataSource, PREFIX);
        leases.partitions(1);
        registry.register(node("n1", "inc-1"), LONG);
        registry.register(node("n2", "inc-2"), LONG);
        long epoch = leases.take(0, "n1", "inc-1", LONG).orElseThrow().epoch();
        assertThat(registry.remove("n1", "inc-1")).isTrue();
        return epoch;
    }

    /** The deposed owner's write: the probe row set to {@code value}, fenced by partition 0 at {@code epoch}. */
    private static int fencedWrite(Connection c, TestDatabase database, long epoch, int value) throws SQLException {
        ClusterSql sql = new ClusterSql(PREFIX, Vendor.dialectOf(database.dataSource()));
        try (PreparedStatement write =
                c.prepareStatement("UPDATE " + PREFIX + "probe SET v = ? WHERE id = 1 AND " + sql.partitionFence)) {
            write.setInt(1, value);
            write.setInt(2, 0);
            write.setString(3, "n1");
            write.setLong(4, epoch);
            return write.executeUpdate();
        }
    }

    private static int probe(DataSource dataSource) {
        Integer v = new JdbcTemplate(dataSource)
                .queryForObject("SELECT v FROM " + PREFIX + "probe WHERE id = 1", Integer.class);
        return v == null ? -1 : v;
    }

    private static NodeInfo node(String nodeId, String incarnation) {
        return new NodeInfo(nodeId, incarnation, "host", Instant.EPOCH, Set.of("default"), 1);
    }
}
