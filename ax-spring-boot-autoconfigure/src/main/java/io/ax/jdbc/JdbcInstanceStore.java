package io.ax.jdbc;

import static io.ax.jdbc.RowMappers.AUDIT;
import static io.ax.jdbc.RowMappers.DEAD_LETTER;
import static io.ax.jdbc.RowMappers.INSTANCE;
import static io.ax.jdbc.RowMappers.OWNED;
import static io.ax.jdbc.RowMappers.TASK;

import io.ax.core.AuditEntry;
import io.ax.core.AxException;
import io.ax.core.AxIdempotency;
import io.ax.core.DeadLetter;
import io.ax.core.DuplicateInstanceException;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.TimeReference;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.PartitionLeases;
import io.ax.core.cluster.WakeUps;
import io.ax.core.store.ActivityStore;
import io.ax.core.store.DefinitionChange;
import io.ax.core.store.InstanceQuery;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.store.OwnedInstance;
import io.ax.core.store.Permits;
import io.ax.core.store.StoreDescription;
import io.ax.core.store.StoredDefinition;
import io.ax.core.store.StoredTask;
import io.ax.core.store.TaskDataStore;
import io.ax.jdbc.GroupWriter.NextFire;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * The durable store: PostgreSQL, MySQL, MariaDB or H2 through JDBC. Each change of an instance is one conditional
 * {@code UPDATE ... WHERE id = ? AND state = ?} plus its audit row, in one transaction; the unique key on (task,
 * key) makes a second instance for the same fire, or for the same caller's key, impossible. Times are stored as
 * microseconds since the epoch, so every vendor stores the same value and nothing depends on the database's time
 * zone. What differs between the databases is the {@link Dialect}'s. Thread-safe.
 *
 * <p>Create the tables first with {@link JdbcSchema#migrate}. Called inside a transaction of the same data
 * source, the store's writes join it.
 */
public final class JdbcInstanceStore implements InstanceStore, ClusterStore {

    private final JdbcTemplate jdbc;
    private final JdbcBatches batches;
    private final Transactions tx;
    private final Dialect dialect;
    private final Sql sql;
    private final GroupWriter groups;

    private final JdbcLeaderLease lease;
    private final JdbcNodeRegistry registry;
    private final JdbcPartitionLeases partitions;
    private final DataSource dataSource;
    private final String tablePrefix;
    private final JdbcIdempotency idempotency;
    private final JdbcPermits permits;
    private final JdbcActivityStore activity;
    private final JdbcTaskData taskData;
    /**
     * The cluster's partition count as {@link #partitions} last read it from its table; 0 until then. Every new
     * instance is written with its partition for it, or without one while it is 0.
     */
    private volatile int partitionCount;
    /**
     * When this store last read the table for a count it did not know yet (monotonic nanos): a store that writes
     * instances without being a node (an application's writer, a tool) learns the cluster's count there, so that its
     * rows are in their partition's reads at once.
     */
    private volatile long countReadNanos = System.nanoTime() - COUNT_READ_EVERY.toNanos();

    private static final java.time.Duration COUNT_READ_EVERY = java.time.Duration.ofSeconds(1);

    private final PartitionedInstances partitioned;
    /** Which server the database is; null where it tells none. */
    private final JdbcStoreIdentity identity;
    /** The application's data source the store was given. */
    private final DataSource target;

    /** The data source this store was given: a transaction of it is one the store's writes join. */
    public DataSource dataSource() {
        return target;
    }

    /** How long each of AX's statements waits at most for the database's answer, unless told otherwise. */
    public static final Duration DEFAULT_NETWORK_TIMEOUT = Duration.ofSeconds(10);

    /**
     * A store whose statements wait at most {@link #DEFAULT_NETWORK_TIMEOUT} for the database's answer.
     *
     * @param dataSource where the tables live
     * @param tablePrefix the prefix of AX's tables, e.g. {@code ax_}
     */
    public JdbcInstanceStore(DataSource dataSource, String tablePrefix) {
        this(dataSource, tablePrefix, DEFAULT_NETWORK_TIMEOUT);
    }

    /**
     * @param target where the tables live
     * @param tablePrefix the prefix of AX's tables, e.g. {@code ax_}
     * @param networkTimeout how long each statement on a connection AX borrows waits at most for the database's
     *     answer ({@link java.sql.Connection#setNetworkTimeout}), so that a network which drops packets without a
     *     word fails the statement instead of holding it; zero leaves the driver's own timeout (often none)
     * @throws IllegalArgumentException when the timeout is negative
     */
    public JdbcInstanceStore(DataSource target, String tablePrefix, Duration networkTimeout) {
        Objects.requireNonNull(target, "dataSource");
        Objects.requireNonNull(networkTimeout, "networkTimeout");
        this.target = target;
        DataSource dataSource = NetworkTimeoutDataSource.of(target, networkTimeout);
        this.jdbc = new JdbcTemplate(dataSource);
        this.batches = new JdbcBatches(jdbc);
        this.tx = new Transactions(dataSource, jdbc.getExceptionTranslator());
        Vendor vendor = Vendor.of(dataSource);
        this.dialect = vendor.dialect();
        this.sql = new Sql(JdbcSchema.checkPrefix(tablePrefix), dialect);
        this.groups = dialect.groupWriter(jdbc, sql, tablePrefix);
        this.lease = new JdbcLeaderLease(dataSource, tablePrefix);
        this.registry = new JdbcNodeRegistry(dataSource, tablePrefix);
        this.partitions = new JdbcPartitionLeases(dataSource, tablePrefix, count -> partitionCount = count);
        this.dataSource = dataSource;
        this.tablePrefix = tablePrefix;
        this.idempotency = new JdbcIdempotency(jdbc, tablePrefix, dialect);
        this.permits = new JdbcPermits(jdbc, tx, dialect, tablePrefix, this::transition);
        this.activity = new JdbcActivityStore(jdbc, batches, tx, dialect, tablePrefix);
        this.taskData = new JdbcTaskData(jdbc, tablePrefix, dialect);
        this.partitioned = new PartitionedInstances(jdbc, batches, tx, sql);
        this.identity = JdbcStoreIdentity.of(jdbc, vendor);
    }

    /**
     * On PostgreSQL, {@code LISTEN/NOTIFY} wake-ups (a new listener each call: one per engine); elsewhere none, and
     * the nodes poll.
     */
    @Override
    public WakeUps wakeUps() {
        return dialect.wakeUps(dataSource, tablePrefix);
    }

    /**
     * PostgreSQL's system identifier and timeline, MySQL's {@code server_uuid}; empty on MariaDB and H2, which tell
     * nothing that changes with a failover.
     */
    @Override
    public Optional<io.ax.core.cluster.StoreIdentity> storeIdentity() {
        return Optional.ofNullable(identity);
    }

    /** Idempotency keys in this store's {@code idempotency} table, claimed on the database's clock. */
    @Override
    public Optional<AxIdempotency> idempotency() {
        return Optional.of(idempotency);
    }

    /**
     * The permits of cluster-wide limits in this store's {@code permit} table, each taken in the transaction of the
     * claim it is for.
     */
    @Override
    public Optional<Permits> permits() {
        return Optional.of(permits);
    }

    /** The activity rollup in this store's {@code activity} table, which every node on the database writes to. */
    @Override
    public Optional<ActivityStore> activity() {
        return Optional.of(activity);
    }

    /** The data tasks keep between runs, in this store's {@code task_data} table, shared by every node on it. */
    @Override
    public Optional<TaskDataStore> taskData() {
        return Optional.of(taskData);
    }

    /** The database's clock. */
    @Override
    public Optional<TimeReference> timeReference() {
        return Optional.of(new JdbcTimeReference(jdbc, dialect));
    }

    /** The leader lease in this store's tables; its epoch fences the leader's writes here. */
    @Override
    public JdbcLeaderLease leaderLease() {
        return lease;
    }

    /** The node registry in this store's tables. */
    @Override
    public JdbcNodeRegistry nodeRegistry() {
        return registry;
    }

    /** The partitions in this store's tables, beside the rows their owners' writes change. */
    @Override
    public Optional<PartitionLeases> partitionLeases() {
        return Optional.of(partitions);
    }

    // ---- instances ----------------------------------------------------------------------------------------

    /** Whether the calling thread is inside a Spring-managed transaction on this store's DataSource. */
    @Override
    public boolean inCallerTransaction() {
        return tx.inCallerTransaction();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here: inside a Spring-managed transaction on this store's DataSource (one that the store's writes joined),
     * the actions wait for its end through Spring's transaction synchronization; anywhere else, including a
     * transaction on another DataSource, {@code onCommit} runs at once.
     */
    @Override
    public void afterCommit(Runnable onCommit, Runnable onRollback) {
        tx.afterCommit(onCommit, onRollback);
    }

    @Override
    public void create(TaskInstance instance, String reason) {
        Objects.requireNonNull(instance, "instance");
        if (instance.state() != InstanceState.CREATED) {
            throw new IllegalArgumentException(
                    "a new instance must be CREATED, " + instance.id() + " is " + instance.state());
        }
        int count = countForNewRows();
        tx.run(() -> {
            try {
                jdbc.update(sql.insertInstance, Binder.instanceArgs(instance, null, count), Binder.INSERT_TYPES);
            } catch (DataAccessException e) {
                throw dialect.isDuplicateKey(e)
                        ? new DuplicateInstanceException(instance.taskName(), instance.scheduledTime())
                        : e;
            }
            jdbc.update(
                    sql.insertAudit,
                    Binder.auditArgs(new AuditEntry(
                            instance.id(),
                            null,
                            InstanceState.CREATED,
                            instance.node(),
                            instance.attempt(),
                            instance.updatedAt(),
                            reason)));
        });
    }

    @Override
    public boolean[] schedule(List<NewFire> fires) {
        return schedule(fires, 0);
    }

    @Override
    public boolean[] schedule(List<NewFire> fires, long fence) {
        if (fires.isEmpty()) {
            return new boolean[0];
        }
        // one count for the rows and for telling their fences: the store may learn it meanwhile
        int count = countForNewRows();
        return tx.execute(() -> {
            boolean[] written = groups.insertInstances(fires, fence, count);
            if (fence > 0) {
                for (boolean w : written) {
                    if (!w) {
                        checkFence(fence); // a row left out: a duplicate, or the whole group fenced out
                        break;
                    }
                }
            }
            checkPartitionFences(fires, written, count);
            List<AuditEntry> audits = new ArrayList<>(fires.size() * 2);
            // the last series fire of a task in the group is its next one, as if the fires were written one by one
            Map<String, NextFire> nextFires = new LinkedHashMap<>();
            for (int i = 0; i < written.length; i++) {
                if (!written[i]) {
                    continue;
                }
                NewFire fire = fires.get(i);
                TaskInstance in = fire.instance();
                audits.add(new AuditEntry(
                        in.id(), null, InstanceState.CREATED, in.node(), 0, in.updatedAt(), fire.reason()));
                audits.add(new AuditEntry(
                        in.id(),
                        InstanceState.CREATED,
                        InstanceState.SCHEDULED,
                        in.node(),
                        0,
                        in.updatedAt(),
                        "due at " + in.scheduledTime()));
                if (fire.series()) {
                    nextFires.remove(in.taskName());
                    nextFires.put(in.taskName(), new NextFire(in.taskName(), in.scheduledTime(), in.updatedAt()));
                }
            }
            groups.insertAudits(audits);
            groups.updateNextFires(new ArrayList<>(nextFires.values()));
            return written;
        });
    }

    /**
     * Throws when {@code fence} is no longer the current epoch: a fenced write that left rows unchanged lost to a
     * takeover (rather than to another writer), and the transaction must roll back whole.
     */
    private void checkFence(long fence) {
        Long current = jdbc.queryForObject(sql.currentEpoch, Long.class);
        if (current == null || current != fence) {
            throw new FencedOutException(fence);
        }
    }

    /**
     * Throws when a fire fenced by its partition was left out because the partition moved (or the row would have
     * none), rather than as a duplicate: the transaction must roll back whole, as for a stale leader.
     */
    private void checkPartitionFences(List<NewFire> fires, boolean[] written, int count) {
        Map<Integer, Long> epochs = new HashMap<>();
        for (int i = 0; i < written.length; i++) {
            NewFire fire = fires.get(i);
            if (!written[i] && fire.partitionEpoch() > 0) {
                checkPartitionFence(Binder.partition(fire.instance(), count), fire.partitionEpoch(), epochs);
            }
        }
    }

    /**
     * Throws when a change fenced by its row's partition was not applied because the partition moved (or the row has
     * none), rather than because it lost to another writer; a row that is gone lost, as without the fence.
     */
    private void checkPartitionFences(List<Transition> transitions, boolean[] applied) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < applied.length; i++) {
            if (!applied[i] && transitions.get(i).partitionEpoch() > 0) {
                ids.add(transitions.get(i).instanceId());
            }
        }
        if (ids.isEmpty()) {
            return;
        }
        // the instances that exist, with their partitions (null: none)
        Map<String, Integer> partitionsOf = new HashMap<>();
        for (int from = 0; from < ids.size(); from += JdbcBatches.SIZE) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + JdbcBatches.SIZE));
            jdbc.query(
                    sql.partitionsOf(chunk.size()),
                    rs -> {
                        String id = rs.getString(1);
                        int p = rs.getInt(2);
                        partitionsOf.put(id, rs.wasNull() ? null : p);
                    },
                    chunk.toArray());
        }
        Map<Integer, Long> epochs = new HashMap<>();
        for (int i = 0; i < applied.length; i++) {
            Transition t = transitions.get(i);
            if (!applied[i] && t.partitionEpoch() > 0 && partitionsOf.containsKey(t.instanceId())) {
                checkPartitionFence(partitionsOf.get(t.instanceId()), t.partitionEpoch(), epochs);
            }
        }
    }

    /**
     * Throws when {@code partition} (null: none) is not at {@code epoch}. The epoch is read with the fence's shared
     * lock, as the fence read it (a plain read could see an older snapshot on MySQL and MariaDB), once per partition
     * in {@code epochs}: the lock keeps it until the transaction ends.
     */
    private void checkPartitionFence(Integer partition, long epoch, Map<Integer, Long> epochs) {
        if (partition == null) {
            throw new FencedOutException(FencedOutException.NO_PARTITION, epoch);
        }
        Long current = epochs.computeIfAbsent(partition, p -> {
            List<Long> found = jdbc.queryForList(sql.partitionEpoch, Long.class, p);
            return found.isEmpty() ? -1L : found.get(0);
        });
        if (current != epoch) {
            throw new FencedOutException(partition, epoch);
        }
    }

    @Override
    public boolean transition(Transition t) {
        Boolean applied = tx.execute(() -> {
            int rows = t.partitionEpoch() > 0
                    ? jdbc.update(
                            sql.updateStateInPartition,
                            Binder.updateArgsInPartition(t),
                            Binder.UPDATE_TYPES_IN_PARTITION)
                    : jdbc.update(sql.updateState, Binder.updateArgs(t), Binder.UPDATE_TYPES);
            if (rows > 1) {
                throw new AxException(
                        "Instance id " + t.instanceId() + " matched " + rows + " rows: the schema is broken");
            }
            if (rows == 0 && t.fence() > 0) {
                checkFence(t.fence());
            }
            if (rows == 0 && t.partitionEpoch() > 0) {
                checkPartitionFences(List.of(t), new boolean[] {false});
            }
            if (rows == 1) {
                jdbc.update(sql.insertAudit, Binder.auditArgs(Binder.auditEntry(t)));
            }
            return rows == 1;
        });
        return Boolean.TRUE.equals(applied);
    }

    @Override
    public boolean[] transitionAll(List<Transition> transitions) {
        if (transitions.isEmpty()) {
            return new boolean[0];
        }
        long fence = 0;
        for (Transition t : transitions) {
            fence = Math.max(fence, t.fence());
        }
        long fenced = fence;
        return tx.execute(() -> checkFenced(groups.transitionAll(transitions), transitions, fenced));
    }

    /**
     * Throws, rolling the group back, when a fenced change was not applied because its epoch is stale: the leader's,
     * or that of its row's partition.
     */
    private boolean[] checkFenced(boolean[] applied, List<Transition> transitions, long fence) {
        if (fence > 0) {
            for (int i = 0; i < applied.length; i++) {
                if (!applied[i] && transitions.get(i).fence() > 0) {
                    checkFence(transitions.get(i).fence());
                }
            }
        }
        checkPartitionFences(transitions, applied);
        return applied;
    }

    @Override
    public List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit) {
        if (states.isEmpty() || limit <= 0) {
            return List.of();
        }
        return jdbc.query(
                sql.findOwned(states.size()),
                Binder.ownedArgs(owner, states, limit),
                Binder.ownedTypes(states.size()),
                OWNED);
    }

    @Override
    public Set<String> tasksWithLiveFire() {
        return new HashSet<>(jdbc.queryForList(sql.tasksWithLiveFire, String.class));
    }

    @Override
    public List<OwnedInstance> findAll(Collection<String> ids) {
        List<String> all = List.copyOf(ids);
        List<OwnedInstance> found = new ArrayList<>(all.size());
        for (int from = 0; from < all.size(); from += JdbcBatches.SIZE) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + JdbcBatches.SIZE));
            found.addAll(jdbc.query(sql.findAll(chunk.size()), OWNED, chunk.toArray()));
        }
        return found;
    }

    @Override
    public Optional<TaskInstance> find(String id) {
        return jdbc.query(sql.findInstance, INSTANCE, id).stream().findFirst();
    }

    @Override
    public List<TaskInstance> findByTask(String taskName, int limit) {
        return jdbc.query(sql.findByTask, INSTANCE, taskName, limit);
    }

    /** {@code jdbc}, with the database product and its URL without credentials; asked of the database once. */
    @Override
    public StoreDescription describe() {
        StoreDescription known = description;
        if (known == null) {
            try (Connection connection = dataSource.getConnection()) {
                DatabaseMetaData meta = connection.getMetaData();
                known = new StoreDescription(
                        "jdbc", meta.getDatabaseProductName() + " at " + JdbcUrls.withoutCredentials(meta.getURL()));
            } catch (SQLException | RuntimeException e) {
                return new StoreDescription("jdbc", "a database not reachable now: " + e.getMessage());
            }
            description = known;
        }
        return known;
    }

    /** Set by the first {@link #describe}: the database answers it once. */
    private volatile StoreDescription description;

    @Override
    public List<TaskInstance> search(InstanceQuery query) {
        InstanceSearch search = new InstanceSearch(tablePrefix, query);
        return jdbc.query(search.sql(), INSTANCE, search.args());
    }

    @Override
    public List<TaskInstance> findByStates(Set<InstanceState> states, int limit) {
        if (states.isEmpty()) {
            return List.of();
        }
        return jdbc.query(sql.findByStates(states.size()), INSTANCE, Binder.stateArgs(states, limit));
    }

    @Override
    public List<AuditEntry> auditTrail(String instanceId) {
        return jdbc.query(sql.auditTrail, AUDIT, instanceId);
    }

    /** One read per {@link JdbcBatches#SIZE} instances. */
    @Override
    public Map<String, Integer> takeovers(Collection<String> instanceIds) {
        List<String> all = List.copyOf(instanceIds);
        Map<String, Integer> counts = new HashMap<>();
        for (int from = 0; from < all.size(); from += JdbcBatches.SIZE) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + JdbcBatches.SIZE));
            jdbc.query(
                    sql.takeovers(chunk.size()),
                    (RowCallbackHandler) rs -> counts.put(rs.getString(1), rs.getInt(2)),
                    chunk.toArray());
        }
        return counts;
    }

    @Override
    public List<TaskInstance> findScheduled(Instant before, Instant afterTime, String afterId, int limit) {
        Objects.requireNonNull(before, "before");
        if (limit <= 0) {
            return List.of();
        }
        if (afterTime == null) {
            return jdbc.query(sql.findScheduledFirst, INSTANCE, Micros.above(before), limit);
        }
        long after = Micros.of(afterTime);
        return jdbc.query(
                sql.findScheduledAfter,
                INSTANCE,
                Micros.above(before),
                after,
                after,
                afterId == null ? "" : afterId,
                limit);
    }

    // ---- partitions ---------------------------------------------------------------------------------------------

    /**
     * The count new rows are written with: the one this store knows, or, while it knows none, the one the partition
     * table records (read at most once a second; 0 while no node has recorded one, or the read fails: the rows are
     * then filled in later by a node, see {@link #fillPartitions}).
     */
    private int countForNewRows() {
        int count = partitionCount;
        if (count > 0) {
            return count;
        }
        long now = System.nanoTime();
        if (now - countReadNanos < COUNT_READ_EVERY.toNanos()) {
            return 0;
        }
        countReadNanos = now;
        try {
            int recorded = partitions.recorded();
            if (recorded > 0) {
                partitionCount = recorded;
            }
            return recorded;
        } catch (RuntimeException e) {
            return 0; // the insert itself says what is wrong with the database
        }
    }

    /** {@inheritDoc} Here: the count of the partition table, once {@link #partitionLeases()} has read it. */
    @Override
    public int partitionCount() {
        return partitionCount;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here: {@code partition_id IN (...)} on the {@code (state, partition_id, scheduled_us, id)} index, one range
     * per partition up to the bound, sorted; the cursor spelt out as in the read of every partition.
     */
    @Override
    public List<TaskInstance> findScheduled(
            Instant before, Instant afterTime, String afterId, int limit, int[] partitions) {
        return partitioned.findScheduled(before, afterTime, afterId, limit, partitions);
    }

    /** {@inheritDoc} Here: the first row of the due-time index in those partitions. */
    @Override
    public Instant oldestDue(Instant now, int[] partitions) {
        return partitioned.oldestDue(now, partitions);
    }

    /** {@inheritDoc} Here: {@code partition_id IN (...)} on the {@code (state, partition_id, ...)} index. */
    @Override
    public List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit, int[] partitions) {
        return partitioned.findOwned(states, owner, limit, partitions);
    }

    @Override
    public List<OwnedInstance> findHeldByNoneOf(
            Set<InstanceState> states, Set<String> holders, int limit, int[] partitions) {
        return partitioned.findHeldByNoneOf(states, holders, limit, partitions);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here: the rows are found state by state by the index of the rows without a partition, then each is updated
     * only while it still has no partition, in one transaction.
     */
    @Override
    public int fillPartitions(int count, int limit) {
        return partitioned.fill(count, limit, partitionCount);
    }

    /**
     * {@inheritDoc}
     *
     * <p>In chunks of tasks, each one statement over the pairs' task names and keys (the unique index of both), the
     * pairs picked out of what it returns.
     */
    @Override
    public Set<String> scheduledWithKey(Map<String, String> keyOfTask) {
        List<Map.Entry<String, String>> pairs = keyOfTask.entrySet().stream()
                .filter(e -> e.getKey() != null && e.getValue() != null)
                .toList();
        Set<String> scheduled = new HashSet<>();
        for (int from = 0; from < pairs.size(); from += JdbcBatches.SIZE) {
            List<Map.Entry<String, String>> chunk =
                    pairs.subList(from, Math.min(pairs.size(), from + JdbcBatches.SIZE));
            Set<String> keys = new java.util.LinkedHashSet<>();
            chunk.forEach(e -> keys.add(e.getValue()));
            List<Object> args = new ArrayList<>(chunk.size() + keys.size());
            chunk.forEach(e -> args.add(e.getKey()));
            args.addAll(keys);
            jdbc.query(
                    sql.scheduledWithKey(chunk.size(), keys.size()),
                    rs -> {
                        String task = rs.getString(1);
                        if (rs.getString(2).equals(keyOfTask.get(task))) {
                            scheduled.add(task);
                        }
                    },
                    args.toArray());
        }
        return scheduled;
    }

    @Override
    public Optional<TaskInstance> findByKey(String taskName, String key) {
        if (taskName == null || key == null) {
            return Optional.empty();
        }
        return jdbc.query(sql.findByKey, INSTANCE, taskName, key).stream().findFirst();
    }

    @Override
    public Optional<byte[]> payload(String instanceId) {
        List<byte[]> found = jdbc.query(sql.payload, RowMappers.BYTES, instanceId);
        return found.isEmpty() || found.get(0) == null ? Optional.empty() : Optional.of(found.get(0));
    }

    @Override
    public boolean reschedule(String instanceId, Instant from, Instant to, String node, Instant at) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Boolean moved = tx.execute(() -> {
            int rows = jdbc.update(sql.reschedule, Micros.of(to), node, Micros.of(at), instanceId, Micros.of(from));
            if (rows > 1) {
                throw new AxException("Instance id " + instanceId + " matched " + rows + " rows: the schema is broken");
            }
            if (rows == 1) {
                jdbc.update(
                        sql.auditReschedule,
                        node,
                        Micros.of(at),
                        Binder.clip("rescheduled from " + from + " to " + to),
                        instanceId);
            }
            return rows == 1;
        });
        return Boolean.TRUE.equals(moved);
    }

    // ---- tasks --------------------------------------------------------------------------------------------

    @Override
    public void saveTask(String name, String trigger, Instant at) {
        String description = Binder.description(trigger);
        tx.run(() -> {
            if (jdbc.update(sql.updateTask, description, Micros.of(at), name) == 0) {
                try {
                    jdbc.update(sql.insertTask, name, description, Micros.of(at));
                } catch (DataAccessException e) {
                    if (!dialect.isDuplicateKey(e)) {
                        throw e;
                    }
                    jdbc.update(sql.updateTask, description, Micros.of(at), name); // inserted by another node
                }
            }
        });
    }

    @Override
    public void saveTasks(Map<String, String> triggers, Instant at) {
        if (triggers.isEmpty()) {
            return;
        }
        List<Object[]> updates = new ArrayList<>(triggers.size());
        List<String> names = new ArrayList<>(triggers.size());
        triggers.forEach((name, trigger) -> {
            names.add(name);
            updates.add(new Object[] {Binder.description(trigger), Micros.of(at), name});
        });
        try {
            tx.run(() -> {
                int[] counts = batches.run(sql.updateTask, updates);
                List<Object[]> inserts = new ArrayList<>();
                for (int i = 0; i < counts.length; i++) {
                    if (counts[i] == 0) {
                        inserts.add(new Object[] {names.get(i), updates.get(i)[0], Micros.of(at)});
                    } else if (counts[i] == Statement.SUCCESS_NO_INFO) {
                        saveTask(names.get(i), triggers.get(names.get(i)), at);
                    }
                }
                batches.run(sql.insertTask, inserts);
            });
        } catch (DataAccessException e) {
            if (!(dialect.isDuplicateKey(e) || e instanceof PessimisticLockingFailureException)) {
                throw e;
            }
            // another node starting at the same moment inserted some of them first (or, on MariaDB, the two
            // batches deadlocked on the key's gap): one by one, each settled alone
            triggers.forEach((name, trigger) -> saveTaskRacing(name, trigger, at));
        }
    }

    /** Records a task that another node may be inserting at the same moment; each attempt its own transaction. */
    private void saveTaskRacing(String name, String trigger, Instant at) {
        for (int attempt = 1; ; attempt++) {
            try {
                saveTask(name, trigger, at);
                return;
            } catch (PessimisticLockingFailureException deadlocked) {
                if (attempt == 5) {
                    throw deadlocked;
                }
            } catch (DataAccessException raced) {
                // inserted by another node; on PostgreSQL the failed insert also aborted the transaction before
                // saveTask's own update could run
                jdbc.update(sql.updateTask, Binder.description(trigger), Micros.of(at), name);
                return;
            }
        }
    }

    @Override
    public Optional<StoredTask> findTask(String name) {
        return jdbc.query(sql.findTask, TASK, name).stream().findFirst();
    }

    @Override
    public List<StoredTask> findTasks() {
        return jdbc.query(sql.findTasks, TASK);
    }

    /** {@inheritDoc} Here: the paused rows alone, not every task's (thousands, read by every node each heartbeat). */
    @Override
    public Set<String> pausedTasks() {
        return new HashSet<>(jdbc.queryForList(sql.pausedTasks, String.class));
    }

    @Override
    public boolean setPaused(String name, boolean paused, Instant at) {
        return jdbc.update(sql.setPaused, paused, Micros.of(at), name) == 1;
    }

    // ---- runtime task definitions -------------------------------------------------------------------------

    @Override
    public boolean insertDefinition(StoredDefinition d) {
        if (d.version() != 1) {
            throw new IllegalArgumentException("a new definition has version 1, " + d.name() + " has " + d.version());
        }
        try {
            tx.run(() -> {
                jdbc.update(sql.insertDefinition, d.name(), d.definition(), 1L, d.node(), Micros.of(d.updatedAt()));
                audit(d, "REGISTERED", d.definition());
            });
            return true;
        } catch (DataAccessException e) {
            if (dialect.isDuplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public boolean updateDefinition(StoredDefinition d) {
        Boolean updated = tx.execute(() -> {
            int rows = jdbc.update(
                    sql.updateDefinition,
                    d.definition(),
                    d.version(),
                    d.node(),
                    Micros.of(d.updatedAt()),
                    d.name(),
                    d.version() - 1);
            if (rows == 1) {
                audit(d, "UPDATED", d.definition());
            }
            return rows == 1;
        });
        return Boolean.TRUE.equals(updated);
    }

    @Override
    public boolean deleteDefinition(String name, long version, String node, Instant at) {
        Boolean deleted = tx.execute(() -> {
            int rows = jdbc.update(sql.deleteDefinition, name, version);
            if (rows == 1) {
                jdbc.update(sql.insertDefinitionAudit, name, version, "UNREGISTERED", node, Micros.of(at), null);
            }
            return rows == 1;
        });
        return Boolean.TRUE.equals(deleted);
    }

    private void audit(StoredDefinition d, String action, String definition) {
        jdbc.update(
                sql.insertDefinitionAudit,
                d.name(),
                d.version(),
                action,
                d.node(),
                Micros.of(d.updatedAt()),
                definition);
    }

    @Override
    public List<StoredDefinition> findDefinitions() {
        return jdbc.query(sql.findDefinitions, RowMappers.DEFINITION);
    }

    @Override
    public List<DefinitionChange> definitionHistory(String name) {
        return jdbc.query(sql.definitionHistory, RowMappers.DEFINITION_CHANGE, name);
    }

    // ---- dead letters -------------------------------------------------------------------------------------

    @Override
    public void saveDeadLetter(DeadLetter d) {
        // a replay that stopped before it removed the old letter must not keep the instance from dying again
        tx.run(() -> {
            jdbc.update(sql.deleteDeadLetter, d.instanceId());
            jdbc.update(
                    sql.insertDeadLetter,
                    d.instanceId(),
                    d.taskName(),
                    Micros.of(d.scheduledTime()),
                    DeadLetterJson.writeParams(d.params()),
                    DeadLetterJson.writeAttempts(d.attempts()),
                    d.lastStackTrace(),
                    Micros.of(d.diedAt()));
        });
    }

    @Override
    public boolean deleteDeadLetter(String instanceId) {
        return jdbc.update(sql.deleteDeadLetter, instanceId) > 0;
    }

    @Override
    public List<DeadLetter> deadLetters(int offset, int limit) {
        return jdbc.query(sql.deadLetters, DEAD_LETTER, limit, offset);
    }

    @Override
    public Optional<DeadLetter> deadLetter(String instanceId) {
        return jdbc.query(sql.deadLetterOf, DEAD_LETTER, instanceId).stream().findFirst();
    }

    @Override
    public io.ax.core.store.DueCount dueCount(Instant now, int countUpTo) {
        long bound = Micros.of(now);
        Long count = jdbc.queryForObject(sql.dueCount, Long.class, bound, countUpTo);
        Long oldest = jdbc.queryForObject(sql.oldestDue, Long.class, bound);
        long n = count == null ? 0 : count;
        return new io.ax.core.store.DueCount(n, n >= countUpTo, oldest == null ? null : Micros.instant(oldest));
    }

    @Override
    public long deadLetterCount() {
        Long n = jdbc.queryForObject(sql.countDeadLetters, Long.class);
        return n == null ? 0 : n;
    }

    // ---- retention ----------------------------------------------------------------------------------------

    /**
     * {@inheritDoc}
     *
     * <p>Here: the candidates are read from the {@code instance_finished} index on (state, updated_us), then
     * deleted by id with their conditions checked again, then the audit rows and dead letters of the ids whose
     * instance is gone; all in one transaction that locks only the rows it deletes (and, on MySQL and MariaDB, the
     * index gaps next to them).
     */
    @Override
    public int deleteFinished(Instant finishedBefore, Instant deadBefore, int limit) {
        Objects.requireNonNull(finishedBefore, "finishedBefore");
        Objects.requireNonNull(deadBefore, "deadBefore");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        long finished = Micros.above(finishedBefore);
        long dead = Micros.above(deadBefore);
        Integer deleted = tx.execute(() -> {
            List<String> ids = new ArrayList<>(jdbc.queryForList(sql.expiredFinished, String.class, finished, limit));
            if (ids.size() < limit) {
                ids.addAll(jdbc.queryForList(sql.expiredDead, String.class, dead, limit - ids.size()));
            }
            int instances = 0;
            for (int from = 0; from < ids.size(); from += JdbcBatches.SIZE) {
                List<String> chunk = ids.subList(from, Math.min(ids.size(), from + JdbcBatches.SIZE));
                instances += jdbc.update(sql.deleteExpired(chunk.size()), Binder.withTimes(chunk, finished, dead));
                jdbc.update(sql.deleteOrphanAudit(chunk.size()), chunk.toArray());
                jdbc.update(sql.deleteOrphanDeadLetters(chunk.size()), chunk.toArray());
            }
            int letters = 0;
            if (ids.size() < limit) {
                List<String> orphans =
                        jdbc.queryForList(sql.expiredOrphanDeadLetters, String.class, dead, limit - ids.size());
                for (int from = 0; from < orphans.size(); from += JdbcBatches.SIZE) {
                    List<String> chunk = orphans.subList(from, Math.min(orphans.size(), from + JdbcBatches.SIZE));
                    letters += jdbc.update(sql.deleteExpiredDeadLetters(chunk.size()), Binder.withTimes(chunk, dead));
                }
            }
            return instances + letters;
        });
        return deleted == null ? 0 : deleted;
    }

    /** The unit every time is stored in: microseconds since the epoch (see {@link Micros}). */
    static long micros(Instant t) {
        return Micros.of(t);
    }
}
