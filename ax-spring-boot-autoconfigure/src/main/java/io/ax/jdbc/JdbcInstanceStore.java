package io.ax.jdbc;

import io.ax.core.AuditEntry;
import io.ax.core.AxException;
import io.ax.core.AxIdempotency;
import io.ax.core.DeadLetter;
import io.ax.core.DuplicateInstanceException;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.TimeReference;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.WakeUps;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.store.OwnedInstance;
import io.ax.core.store.StoredTask;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The durable store: PostgreSQL, MySQL, MariaDB or H2 through JDBC. Each change of an instance is one conditional
 * {@code UPDATE ... WHERE id = ? AND state = ?} plus its audit row, in one transaction; the unique key on (task,
 * key) makes a second instance for the same fire, or for the same caller's key, impossible. Times are stored as
 * microseconds since the epoch, so every vendor stores the same value and nothing depends on the database's time
 * zone. Thread-safe.
 *
 * <p>Create the tables first with {@link JdbcSchema#migrate}. Called inside a transaction of the same data
 * source, the store's writes join it.
 */
public final class JdbcInstanceStore implements InstanceStore, ClusterStore {

    private static final int REASON_LIMIT = 2_000;
    private static final int BATCH = 500;
    /**
     * How many payload bytes one set-based insert carries at most (unless a single payload is larger): a group of
     * thousands of large payloads goes as several statements instead of one message of hundreds of megabytes.
     */
    private static final int BULK_PAYLOAD_BYTES = 8 * 1024 * 1024;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final Sql sql;
    private final Vendor vendor;
    /** Set-based statements, on PostgreSQL only; null elsewhere. */
    private final PostgresBulk bulk;

    private final JdbcLeaderLease lease;
    private final JdbcNodeRegistry registry;
    private final DataSource dataSource;
    private final String tablePrefix;
    private final JdbcIdempotency idempotency;

    /**
     * @param dataSource where the tables live
     * @param tablePrefix the prefix of AX's tables, e.g. {@code ax_}
     */
    public JdbcInstanceStore(DataSource dataSource, String tablePrefix) {
        Objects.requireNonNull(dataSource, "dataSource");
        this.jdbc = new JdbcTemplate(dataSource);
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.vendor = Vendor.of(dataSource);
        this.sql = new Sql(JdbcSchema.checkPrefix(tablePrefix), vendor);
        this.bulk = vendor == Vendor.POSTGRESQL ? new PostgresBulk(jdbc, tablePrefix) : null;
        this.lease = new JdbcLeaderLease(dataSource, tablePrefix);
        this.registry = new JdbcNodeRegistry(dataSource, tablePrefix);
        this.dataSource = dataSource;
        this.tablePrefix = tablePrefix;
        this.idempotency = new JdbcIdempotency(jdbc, tablePrefix, vendor);
    }

    /**
     * On PostgreSQL, {@code LISTEN/NOTIFY} wake-ups (a new listener each call: one per engine); elsewhere none, and
     * the nodes poll.
     */
    @Override
    public WakeUps wakeUps() {
        return vendor == Vendor.POSTGRESQL ? new PostgresWakeUps(dataSource, tablePrefix) : WakeUps.none();
    }

    /** Idempotency keys in this store's {@code idempotency} table, claimed on the database's clock. */
    @Override
    public Optional<AxIdempotency> idempotency() {
        return Optional.of(idempotency);
    }

    /** The database's clock. */
    @Override
    public Optional<TimeReference> timeReference() {
        return Optional.of(new JdbcTimeReference(jdbc, vendor));
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

    // ---- instances ----------------------------------------------------------------------------------------

    @Override
    public void create(TaskInstance instance, String reason) {
        Objects.requireNonNull(instance, "instance");
        if (instance.state() != InstanceState.CREATED) {
            throw new IllegalArgumentException(
                    "a new instance must be CREATED, " + instance.id() + " is " + instance.state());
        }
        tx.executeWithoutResult(status -> {
            try {
                jdbc.update(sql.insertInstance, instanceArgs(instance, null), INSERT_TYPES);
            } catch (DuplicateKeyException e) {
                throw new DuplicateInstanceException(instance.taskName(), instance.scheduledTime());
            }
            jdbc.update(
                    sql.insertAudit,
                    auditArgs(new AuditEntry(
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
        return tx.execute(status -> {
            boolean[] written = bulk != null ? bulkInsert(fires, fence) : insertSkippingDuplicates(fires, fence);
            if (fence > 0) {
                for (boolean w : written) {
                    if (!w) {
                        checkFence(fence); // a row left out: a duplicate, or the whole group fenced out
                        break;
                    }
                }
            }
            List<AuditEntry> audits = new ArrayList<>(fires.size() * 2);
            // the last series fire of a task in the group is its next one, as if the fires were written one by one
            Map<String, Object[]> nextFires = new LinkedHashMap<>();
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
                    nextFires.put(
                            in.taskName(),
                            new Object[] {micros(in.scheduledTime()), micros(in.updatedAt()), in.taskName()});
                }
            }
            if (bulk != null) {
                bulk.insertAudits(audits);
                bulk.updateNextFires(new ArrayList<>(nextFires.values()));
            } else {
                batch(
                        sql.insertAudit,
                        audits.stream().map(JdbcInstanceStore::auditArgs).toList());
                batch(sql.updateTaskNextFire, new ArrayList<>(nextFires.values()));
            }
            return written;
        });
    }

    /** PostgreSQL: instances in as few statements as their payloads allow, duplicates left out by the database. */
    private boolean[] bulkInsert(List<NewFire> fires, long fence) {
        Set<String> ids = new HashSet<>();
        int from = 0;
        long bytes = 0;
        for (int i = 0; i < fires.size(); i++) {
            byte[] payload = fires.get(i).payload();
            int size = payload == null ? 0 : payload.length;
            if (i > from && bytes + size > BULK_PAYLOAD_BYTES) {
                ids.addAll(insertGroup(fires.subList(from, i), fence));
                from = i;
                bytes = 0;
            }
            bytes += size;
        }
        ids.addAll(insertGroup(fires.subList(from, fires.size()), fence));
        boolean[] written = new boolean[fires.size()];
        for (int i = 0; i < written.length; i++) {
            written[i] = ids.contains(fires.get(i).instance().id());
        }
        return written;
    }

    private Set<String> insertGroup(List<NewFire> group, long fence) {
        return bulk.insertInstances(
                group.stream().map(NewFire::instance).toList(),
                group.stream().map(NewFire::payload).toList(),
                fence);
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
     * Inserts instances, leaving out those whose task already has an instance with the same key. The fast path is
     * one batch; if it meets a duplicate, each row is checked and inserted on its own (H2, MySQL and MariaDB undo
     * only the failed statement, not the transaction).
     */
    private boolean[] insertSkippingDuplicates(List<NewFire> fires, long fence) {
        boolean[] written = new boolean[fires.size()];
        String insert = fence > 0 ? sql.insertInstanceFenced : sql.insertInstance;
        int[] types = fence > 0 ? INSERT_TYPES_FENCED : INSERT_TYPES;
        List<Object[]> rows = fires.stream()
                .map(f -> fenced(instanceArgs(f.instance(), f.payload()), fence))
                .toList();
        try {
            int[] counts = batchCounts(insert, rows, types);
            for (int i = 0; i < counts.length; i++) {
                written[i] = counts[i] != 0; // 0: fenced out (a duplicate throws)
            }
        } catch (DuplicateKeyException e) {
            for (int i = 0; i < written.length; i++) {
                if (exists(fires.get(i))) {
                    written[i] = true; // the batch got as far as this row
                    continue;
                }
                try {
                    written[i] = jdbc.update(insert, rows.get(i), types) == 1;
                } catch (DuplicateKeyException duplicate) {
                    written[i] = false;
                }
            }
        }
        return written;
    }

    private boolean exists(NewFire fire) {
        Integer n = jdbc.queryForObject(
                sql.instanceExists, Integer.class, fire.instance().id());
        return n != null && n > 0;
    }

    @Override
    public boolean transition(Transition t) {
        Boolean applied = tx.execute(status -> {
            int rows = jdbc.update(sql.updateState, updateArgs(t), UPDATE_TYPES);
            if (rows > 1) {
                throw new AxException(
                        "Instance id " + t.instanceId() + " matched " + rows + " rows: the schema is broken");
            }
            if (rows == 0 && t.fence() > 0) {
                checkFence(t.fence());
            }
            if (rows == 1) {
                jdbc.update(sql.insertAudit, auditArgs(t));
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
        if (bulk != null) {
            return tx.execute(status -> checkFenced(bulk.transitionAll(transitions), transitions, fenced));
        }
        return tx.execute(status -> {
            int[] counts = batchCounts(
                    sql.updateState,
                    transitions.stream().map(JdbcInstanceStore::updateArgs).toList(),
                    UPDATE_TYPES);
            boolean[] applied = new boolean[counts.length];
            List<Object[]> audits = new ArrayList<>(counts.length);
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] == Statement.SUCCESS_NO_INFO) {
                    throw new AxException("The JDBC driver does not report row counts of batched updates;"
                            + " AX needs them to know which conditional update won");
                }
                applied[i] = counts[i] == 1;
                if (applied[i]) {
                    audits.add(auditArgs(transitions.get(i)));
                }
            }
            batch(sql.insertAudit, audits);
            return checkFenced(applied, transitions, fenced);
        });
    }

    /** Throws, rolling the group back, when a fenced change was not applied because its epoch is stale. */
    private boolean[] checkFenced(boolean[] applied, List<Transition> transitions, long fence) {
        if (fence > 0) {
            for (int i = 0; i < applied.length; i++) {
                if (!applied[i] && transitions.get(i).fence() > 0) {
                    checkFence(transitions.get(i).fence());
                }
            }
        }
        return applied;
    }

    @Override
    public List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit) {
        if (states.isEmpty() || limit <= 0) {
            return List.of();
        }
        String query = sql.findOwnedPrefix + states.stream().map(s -> "?").collect(Collectors.joining(", "))
                + ") ORDER BY scheduled_us, id LIMIT ?";
        List<Object> args = new ArrayList<>();
        args.add(owner);
        args.add(owner);
        states.forEach(s -> args.add(s.name()));
        args.add(limit);
        int[] types = new int[args.size()];
        Arrays.fill(types, Types.VARCHAR);
        types[types.length - 1] = Types.INTEGER;
        return jdbc.query(query, args.toArray(), types, OWNED);
    }

    @Override
    public Set<String> tasksWithLiveFire() {
        return new java.util.HashSet<>(jdbc.queryForList(sql.tasksWithLiveFire, String.class));
    }

    @Override
    public List<OwnedInstance> findAll(Collection<String> ids) {
        List<String> all = List.copyOf(ids);
        List<OwnedInstance> found = new ArrayList<>(all.size());
        for (int from = 0; from < all.size(); from += BATCH) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + BATCH));
            String query = sql.findAllPrefix + chunk.stream().map(s -> "?").collect(Collectors.joining(", ")) + ")";
            found.addAll(jdbc.query(query, OWNED, chunk.toArray()));
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

    @Override
    public List<TaskInstance> findByStates(Set<InstanceState> states, int limit) {
        if (states.isEmpty()) {
            return List.of();
        }
        String query = sql.findByStatesPrefix + states.stream().map(s -> "?").collect(Collectors.joining(", "))
                + ") ORDER BY scheduled_us, id LIMIT ?";
        List<Object> args = new ArrayList<>();
        states.forEach(s -> args.add(s.name()));
        args.add(limit);
        return jdbc.query(query, INSTANCE, args.toArray());
    }

    @Override
    public List<AuditEntry> auditTrail(String instanceId) {
        return jdbc.query(sql.auditTrail, AUDIT, instanceId);
    }

    @Override
    public List<TaskInstance> findScheduled(Instant before, Instant afterTime, String afterId, int limit) {
        Objects.requireNonNull(before, "before");
        if (limit <= 0) {
            return List.of();
        }
        if (afterTime == null) {
            return jdbc.query(sql.findScheduledFirst, INSTANCE, microsAbove(before), limit);
        }
        long after = micros(afterTime);
        return jdbc.query(
                sql.findScheduledAfter,
                INSTANCE,
                microsAbove(before),
                after,
                after,
                afterId == null ? "" : afterId,
                limit);
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
        List<byte[]> found = jdbc.query(sql.payload, (rs, n) -> rs.getBytes(1), instanceId);
        return found.isEmpty() || found.get(0) == null ? Optional.empty() : Optional.of(found.get(0));
    }

    @Override
    public boolean reschedule(String instanceId, Instant from, Instant to, String node, Instant at) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Boolean moved = tx.execute(status -> {
            int rows = jdbc.update(sql.reschedule, micros(to), node, micros(at), instanceId, micros(from));
            if (rows > 1) {
                throw new AxException("Instance id " + instanceId + " matched " + rows + " rows: the schema is broken");
            }
            if (rows == 1) {
                jdbc.update(
                        sql.auditReschedule,
                        node,
                        micros(at),
                        clip("rescheduled from " + from + " to " + to),
                        instanceId);
            }
            return rows == 1;
        });
        return Boolean.TRUE.equals(moved);
    }

    // ---- tasks --------------------------------------------------------------------------------------------

    @Override
    public void saveTask(String name, String trigger, Instant at) {
        String description = description(trigger);
        tx.executeWithoutResult(status -> {
            if (jdbc.update(sql.updateTask, description, micros(at), name) == 0) {
                try {
                    jdbc.update(sql.insertTask, name, description, micros(at));
                } catch (DuplicateKeyException raced) {
                    jdbc.update(sql.updateTask, description, micros(at), name);
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
            updates.add(new Object[] {description(trigger), micros(at), name});
        });
        try {
            tx.executeWithoutResult(status -> {
                int[] counts = batchCounts(sql.updateTask, updates);
                List<Object[]> inserts = new ArrayList<>();
                for (int i = 0; i < counts.length; i++) {
                    if (counts[i] == 0) {
                        inserts.add(new Object[] {names.get(i), updates.get(i)[0], micros(at)});
                    } else if (counts[i] == Statement.SUCCESS_NO_INFO) {
                        saveTask(names.get(i), triggers.get(names.get(i)), at);
                    }
                }
                batch(sql.insertTask, inserts);
            });
        } catch (DuplicateKeyException | PessimisticLockingFailureException raced) {
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
            } catch (DuplicateKeyException raced) {
                jdbc.update(sql.updateTask, description(trigger), micros(at), name);
                return;
            } catch (PessimisticLockingFailureException deadlocked) {
                if (attempt == 5) {
                    throw deadlocked;
                }
            } catch (org.springframework.dao.DataAccessException aborted) {
                // PostgreSQL: the insert's failure aborted the transaction before its own update could run
                jdbc.update(sql.updateTask, description(trigger), micros(at), name);
                return;
            }
        }
    }

    private static String description(String trigger) {
        return trigger.length() > 500 ? trigger.substring(0, 500) : trigger;
    }

    @Override
    public Optional<StoredTask> findTask(String name) {
        return jdbc.query(sql.findTask, TASK, name).stream().findFirst();
    }

    @Override
    public List<StoredTask> findTasks() {
        return jdbc.query(sql.findTasks, TASK);
    }

    @Override
    public boolean setPaused(String name, boolean paused, Instant at) {
        return jdbc.update(sql.setPaused, paused, micros(at), name) == 1;
    }

    // ---- dead letters -------------------------------------------------------------------------------------

    @Override
    public void saveDeadLetter(DeadLetter d) {
        // a replay that stopped before it removed the old letter must not keep the instance from dying again
        tx.executeWithoutResult(status -> {
            jdbc.update(sql.deleteDeadLetter, d.instanceId());
            jdbc.update(
                    sql.insertDeadLetter,
                    d.instanceId(),
                    d.taskName(),
                    micros(d.scheduledTime()),
                    DeadLetterJson.writeParams(d.params()),
                    DeadLetterJson.writeAttempts(d.attempts()),
                    d.lastStackTrace(),
                    micros(d.diedAt()));
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
        long finished = microsAbove(finishedBefore);
        long dead = microsAbove(deadBefore);
        Integer deleted = tx.execute(status -> {
            List<String> ids = new ArrayList<>(jdbc.queryForList(sql.expiredFinished, String.class, finished, limit));
            if (ids.size() < limit) {
                ids.addAll(jdbc.queryForList(sql.expiredDead, String.class, dead, limit - ids.size()));
            }
            int instances = 0;
            for (int from = 0; from < ids.size(); from += BATCH) {
                List<String> chunk = ids.subList(from, Math.min(ids.size(), from + BATCH));
                instances +=
                        jdbc.update(sql.deleteExpiredPrefix + marks(chunk) + ")", withTimes(chunk, finished, dead));
                jdbc.update(sql.deleteOrphanAuditPrefix + marks(chunk) + ")", chunk.toArray());
                jdbc.update(sql.deleteOrphanDeadLettersPrefix + marks(chunk) + ")", chunk.toArray());
            }
            int letters = 0;
            if (ids.size() < limit) {
                List<String> orphans =
                        jdbc.queryForList(sql.expiredOrphanDeadLetters, String.class, dead, limit - ids.size());
                for (int from = 0; from < orphans.size(); from += BATCH) {
                    List<String> chunk = orphans.subList(from, Math.min(orphans.size(), from + BATCH));
                    letters += jdbc.update(
                            sql.deleteExpiredDeadLettersPrefix + marks(chunk) + ")", withTimes(chunk, dead));
                }
            }
            return instances + letters;
        });
        return deleted == null ? 0 : deleted;
    }

    private static String marks(List<String> ids) {
        return String.join(", ", Collections.nCopies(ids.size(), "?"));
    }

    /** The bound arguments of a statement that compares times first, then lists ids. */
    private static Object[] withTimes(List<String> ids, long... times) {
        Object[] args = new Object[times.length + ids.size()];
        for (int i = 0; i < times.length; i++) {
            args[i] = times[i];
        }
        for (int i = 0; i < ids.size(); i++) {
            args[times.length + i] = ids.get(i);
        }
        return args;
    }

    // ---- rows ---------------------------------------------------------------------------------------------

    private static final RowMapper<TaskInstance> INSTANCE = (rs, n) -> new TaskInstance(
            rs.getString(1),
            rs.getString(2),
            instant(rs.getLong(3)),
            InstanceState.valueOf(rs.getString(4)),
            rs.getInt(5),
            rs.getString(6),
            instant(rs.getLong(7)),
            InstanceOrigin.valueOf(rs.getString(8)),
            rs.getString(9));

    private static final RowMapper<OwnedInstance> OWNED =
            (rs, n) -> new OwnedInstance(INSTANCE.mapRow(rs, n), rs.getString(10));

    private static final RowMapper<AuditEntry> AUDIT = (rs, n) -> new AuditEntry(
            rs.getString(1),
            state(rs.getString(2)),
            InstanceState.valueOf(rs.getString(3)),
            rs.getString(4),
            rs.getInt(5),
            instant(rs.getLong(6)),
            rs.getString(7));

    private static final RowMapper<StoredTask> TASK = (rs, n) -> new StoredTask(
            rs.getString(1), rs.getString(2), nullableInstant(rs, 3), rs.getBoolean(4), instant(rs.getLong(5)));

    private static final RowMapper<DeadLetter> DEAD_LETTER = (rs, n) -> new DeadLetter(
            rs.getString(1),
            rs.getString(2),
            instant(rs.getLong(3)),
            DeadLetterJson.readParams(rs.getString(4)),
            DeadLetterJson.readAttempts(rs.getString(5)),
            rs.getString(6),
            instant(rs.getLong(7)));

    /** The SQL types of {@link #instanceArgs}, so that null keys and payloads bind on every driver. */
    private static final int[] INSERT_TYPES = {
        Types.VARCHAR,
        Types.VARCHAR,
        Types.BIGINT,
        Types.VARCHAR,
        Types.INTEGER,
        Types.VARCHAR,
        Types.BIGINT,
        Types.VARCHAR,
        Types.VARCHAR,
        Types.VARBINARY
    };

    /** {@link #INSERT_TYPES} and the epoch a fenced insert is conditional on. */
    private static final int[] INSERT_TYPES_FENCED = fencedTypes();

    private static int[] fencedTypes() {
        int[] t = Arrays.copyOf(INSERT_TYPES, INSERT_TYPES.length + 1);
        t[INSERT_TYPES.length] = Types.BIGINT;
        return t;
    }

    private static Object[] fenced(Object[] args, long fence) {
        if (fence == 0) {
            return args;
        }
        Object[] withFence = Arrays.copyOf(args, args.length + 1);
        withFence[args.length] = fence;
        return withFence;
    }

    private static Object[] instanceArgs(TaskInstance i, byte[] payload) {
        return new Object[] {
            i.id(),
            i.taskName(),
            micros(i.scheduledTime()),
            i.state().name(),
            i.attempt(),
            i.node(),
            micros(i.updatedAt()),
            i.origin().name(),
            i.key(),
            payload
        };
    }

    /** The SQL types of {@link #updateArgs}: the due time is often null in every row of a batch. */
    private static final int[] UPDATE_TYPES = {
        Types.VARCHAR,
        Types.INTEGER,
        Types.VARCHAR,
        Types.BIGINT, // state, attempt, node, updated
        Types.INTEGER,
        Types.VARCHAR,
        Types.BIGINT,
        Types.BIGINT, // clear owner, owner, epoch (twice)
        Types.VARCHAR,
        Types.VARCHAR,
        Types.BIGINT, // id, from state, due time
        Types.VARCHAR,
        Types.VARCHAR,
        Types.BIGINT,
        Types.BIGINT // expected owner (twice), fence (twice)
    };

    private static Object[] updateArgs(Transition t) {
        return new Object[] {
            t.to().name(),
            t.attempt(),
            t.node(),
            micros(t.at()),
            t.to() == InstanceState.SCHEDULED ? 1 : 0,
            t.owner(),
            t.fence(),
            t.fence(),
            t.instanceId(),
            t.from().name(),
            t.dueAt() == null ? null : micros(t.dueAt()),
            t.expectedOwner(),
            t.expectedOwner(),
            t.fence(),
            t.fence()
        };
    }

    private static Object[] auditArgs(Transition t) {
        return auditArgs(new AuditEntry(t.instanceId(), t.from(), t.to(), t.node(), t.attempt(), t.at(), t.reason()));
    }

    static String clip(String reason) {
        return reason.length() > REASON_LIMIT ? reason.substring(0, REASON_LIMIT) : reason;
    }

    private static Object[] auditArgs(AuditEntry e) {
        String reason = clip(e.reason());
        return new Object[] {
            e.instanceId(),
            e.from() == null ? null : e.from().name(),
            e.to().name(),
            e.node(),
            e.attempt(),
            micros(e.at()),
            reason
        };
    }

    private void batch(String statement, List<Object[]> rows) {
        batchCounts(statement, rows);
    }

    private void batch(String statement, List<Object[]> rows, int[] types) {
        batchCounts(statement, rows, types);
    }

    private int[] batchCounts(String statement, List<Object[]> rows) {
        return batchCounts(statement, rows, null);
    }

    /** @param types the SQL type of each column, or null to tell them from the values */
    private int[] batchCounts(String statement, List<Object[]> rows, int[] types) {
        int[] all = new int[rows.size()];
        for (int from = 0; from < rows.size(); from += BATCH) {
            List<Object[]> chunk = rows.subList(from, Math.min(rows.size(), from + BATCH));
            int[] counts = jdbc.batchUpdate(statement, chunk, types != null ? types : argTypes(chunk));
            System.arraycopy(counts, 0, all, from, counts.length);
        }
        return all;
    }

    /** Declares the SQL type of each column, so that null values bind on every driver. */
    private static int[] argTypes(List<Object[]> chunk) {
        if (chunk.isEmpty()) {
            return new int[0];
        }
        Object[] first = chunk.get(0);
        int[] types = new int[first.length];
        for (int i = 0; i < first.length; i++) {
            types[i] = typeOf(chunk, i);
        }
        return types;
    }

    private static int typeOf(List<Object[]> chunk, int column) {
        for (Object[] row : chunk) {
            Object v = row[column];
            if (v instanceof Long) {
                return Types.BIGINT;
            }
            if (v instanceof Integer) {
                return Types.INTEGER;
            }
            if (v instanceof Boolean) {
                return Types.BOOLEAN;
            }
            if (v != null) {
                return Types.VARCHAR;
            }
        }
        return Types.VARCHAR;
    }

    static long micros(Instant t) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, t);
    }

    /** The least whole microsecond not before {@code t}: {@code us < microsAbove(t)} exactly when before t. */
    static long microsAbove(Instant t) {
        long us = micros(t);
        return t.getNano() % 1_000 == 0 ? us : us + 1;
    }

    static Instant instant(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }

    private static Instant nullableInstant(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : instant(v);
    }

    private static InstanceState state(String name) {
        return name == null ? null : InstanceState.valueOf(name);
    }
}
