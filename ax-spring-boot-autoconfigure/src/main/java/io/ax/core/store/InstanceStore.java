package io.ax.core.store;

import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.DuplicateInstanceException;
import io.ax.core.IllegalTransitionException;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.PartitionLeases;
import io.ax.core.cluster.Partitions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Where instances, their audit log and dead letters live. Implementations are thread-safe. Every change of an
 * instance is conditional on its current state and appends its audit row atomically with it, so a late or duplicate
 * writer loses instead of overwriting.
 *
 * <p>Why it is long: it is the whole contract a store keeps, each method with the guarantee it gives, and the
 * defaults that let a simple store keep it with fewer methods.
 */
public interface InstanceStore {

    /**
     * Stores a new instance in state {@link io.ax.core.InstanceState#CREATED} and audits its creation.
     *
     * @throws DuplicateInstanceException when the task already has an instance with that key (a trigger's fire: for
     *     that fire time)
     * @throws IllegalArgumentException when the instance is not in state CREATED
     */
    void create(TaskInstance instance, String reason);

    /**
     * Applies {@code transition} if the instance is still in {@code transition.from()} (and, when {@link
     * Transition#dueAt()} is set, still due at that time), and audits it.
     *
     * @return true if applied; false if the instance is unknown or no longer in the expected state (lost the race)
     * @throws IllegalTransitionException never for a valid {@link Transition}, which checks its arrow when built
     */
    boolean transition(Transition transition);

    /**
     * Applies each transition like {@link #transition}, in one round trip where the store can.
     *
     * @return per transition, whether it was applied
     */
    default boolean[] transitionAll(List<Transition> transitions) {
        boolean[] applied = new boolean[transitions.size()];
        for (int i = 0; i < applied.length; i++) {
            applied[i] = transition(transitions.get(i));
        }
        return applied;
    }

    /**
     * Writes new instances straight into SCHEDULED with their payloads, auditing their creation and scheduling, in
     * one transaction; for a series fire also records the task's next fire time. An instance whose task already has
     * one with the same key ({@link TaskInstance#key()}; a trigger's fire is keyed by its fire time) is not written.
     *
     * @return per fire, whether it was written (false: a duplicate of an existing instance)
     */
    boolean[] schedule(List<NewFire> fires);

    /**
     * Like {@link #schedule(List)}, for the trigger decisions of the leader of {@code fence}: the rows are written
     * only while that epoch is current, checked in the writing statement itself.
     *
     * @param fence the leader's epoch; 0 writes unfenced, as {@link #schedule(List)}
     * @throws io.ax.core.cluster.FencedOutException when the epoch is no longer current; nothing was written
     */
    boolean[] schedule(List<NewFire> fires, long fence);

    /**
     * Whether this store's writes on the calling thread join a transaction of the caller's that has not ended yet
     * (the JDBC store: a Spring-managed transaction on its DataSource), so that they commit or roll back with it.
     * The default: never.
     */
    default boolean inCallerTransaction() {
        return false;
    }

    /**
     * Runs what follows a write once the caller's transaction it joined has ended: {@code onCommit} after a commit;
     * {@code onRollback} after a rollback, or an end the store cannot tell (then the store's rows are the truth, and
     * they are found there as another process's would be). Both run on the thread that ended the transaction, once
     * its work is visible to every other connection, and outside it: what they write is not part of it. Neither
     * should throw; what they throw is logged, not passed on. Called outside such a transaction ({@link
     * #inCallerTransaction} false), runs {@code onCommit} at once on the calling thread, which is the default.
     *
     * <p>The engine learns through it of what a caller wrote: it puts a new instance into its wheel only once the
     * instance is committed, and never for one that was rolled back.
     */
    default void afterCommit(Runnable onCommit, Runnable onRollback) {
        onCommit.run();
    }

    /**
     * Instances in any of {@code states}, with the node each is assigned to, oldest scheduled time first.
     *
     * @param owner only those assigned to this node; null for all
     */
    List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit);

    /**
     * The names of the tasks that have a trigger fire (of their series, or a catch-up) not finished yet: SCHEDULED,
     * in flight, or waiting for a retry. The leader's reconciliation gives every other task with a trigger its next
     * fire again. The default reads every such instance; a store that can should answer with one query.
     */
    default Set<String> tasksWithLiveFire() {
        Set<String> names = new java.util.HashSet<>();
        for (OwnedInstance o : findOwned(InstanceState.unfinished(), null, Integer.MAX_VALUE)) {
            if (o.instance().origin().isTriggerFire()) {
                names.add(o.instance().taskName());
            }
        }
        return names;
    }

    /** The instances with these ids that the store knows, with their owners, in no particular order. */
    List<OwnedInstance> findAll(java.util.Collection<String> ids);

    /**
     * SCHEDULED instances due before {@code before}, in (scheduled time, id) order, starting after the cursor
     * ({@code afterTime}, {@code afterId}); at most {@code limit}. Served from an index on the due time: the cost
     * follows the rows returned, not the rows pending.
     *
     * @param afterTime the scheduled time of the last instance of the previous page, or null to start at the
     *     earliest
     * @param afterId the id of that instance; ignored when {@code afterTime} is null
     */
    List<TaskInstance> findScheduled(Instant before, Instant afterTime, String afterId, int limit);

    // ---- partitions ----------------------------------------------------------------------------------------------

    /**
     * The partition count this store writes into every new instance ({@link Partitions#of(TaskInstance, int)}): the
     * cluster's, which the store learns when the partitions it keeps ({@link
     * io.ax.core.cluster.ClusterStore#partitionLeases}) record or read it. While it is 0 the store writes instances
     * without a partition, and {@link #fillPartitions} gives them one later. The default: 0, a store that keeps no
     * partitions. Thread-safe; never throws.
     */
    default int partitionCount() {
        return 0;
    }

    /**
     * Like {@link #findScheduled(Instant, Instant, String, int)}, with its order, bound, cursor and limit, for the
     * instances of {@code partitions} only: what the owner of those partitions reads. An instance without a partition
     * (see {@link #fillPartitions}) is in none of them, so never returned here.
     *
     * <p>The default pages through {@link #findScheduled(Instant, Instant, String, int)} and keeps the instances whose
     * partition, computed with {@link #partitionCount()}, is listed; it returns nothing while that count is 0. A store
     * that keeps the partition in its rows answers from an index on (state, partition, scheduled time, id): the cost
     * follows the due rows of those partitions, not the rows pending after {@code before} or in other partitions.
     * Thread-safe.
     *
     * @param partitions the partitions, each 0 to the count - 1 (a number outside matches nothing), in any order;
     *     empty: nothing is returned
     * @throws NullPointerException when {@code before} or {@code partitions} is null
     */
    default List<TaskInstance> findScheduled(
            Instant before, Instant afterTime, String afterId, int limit, int[] partitions) {
        Objects.requireNonNull(before, "before");
        BitSet wanted = partitionSet(partitions);
        int count = partitionCount();
        List<TaskInstance> found = new ArrayList<>();
        if (count == 0 || wanted.isEmpty() || limit <= 0) {
            return found;
        }
        int page = Math.max(limit, 256); // a few partitions of many: read in pages that find something
        Instant time = afterTime;
        String id = afterId;
        while (true) {
            List<TaskInstance> some = findScheduled(before, time, id, page);
            for (TaskInstance i : some) {
                if (wanted.get(Partitions.of(i, count)) && found.add(i) && found.size() == limit) {
                    return found;
                }
            }
            if (some.size() < page) {
                return found;
            }
            time = some.get(some.size() - 1).scheduledTime();
            id = some.get(some.size() - 1).id();
        }
    }

    /**
     * When the earliest instance of {@code partitions} that is SCHEDULED and due before {@code now} fell due, a paused
     * task's left out: how far behind the owner of those partitions is (its lag), read now and then in the background.
     * Null when none is due. The default pages through {@link #findScheduled(Instant, Instant, String, int, int[])};
     * a store that keeps the partition in its rows answers from its due-time index, stopping at the first row.
     *
     * @param partitions the partitions, in any order; empty: null
     */
    default Instant oldestDue(Instant now, int[] partitions) {
        Set<String> paused = pausedTasks();
        Instant time = null;
        String id = null;
        while (true) {
            List<TaskInstance> some = findScheduled(now, time, id, 256, partitions);
            for (TaskInstance i : some) {
                if (!paused.contains(i.taskName())) {
                    return i.scheduledTime();
                }
            }
            if (some.size() < 256) {
                return null;
            }
            time = some.get(some.size() - 1).scheduledTime();
            id = some.get(some.size() - 1).id();
        }
    }

    /**
     * Like {@link #findOwned(Set, String, int)}, for the instances of {@code partitions} only, oldest scheduled time
     * first, ties by id. An instance without a partition (see {@link #fillPartitions}) is in none of them.
     *
     * <p>The default reads every instance {@link #findOwned(Set, String, int)} finds and keeps those whose partition,
     * computed with {@link #partitionCount()}, is listed; it returns nothing while that count is 0. A store that keeps
     * the partition in its rows reads them by an index on (state, partition). Thread-safe.
     *
     * @param owner only those assigned to this node; null for all
     * @param partitions the partitions, each 0 to the count - 1 (a number outside matches nothing), in any order;
     *     empty: nothing is returned
     * @throws NullPointerException when {@code states} or {@code partitions} is null
     */
    default List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit, int[] partitions) {
        Objects.requireNonNull(states, "states");
        BitSet wanted = partitionSet(partitions);
        int count = partitionCount();
        if (count == 0 || wanted.isEmpty() || states.isEmpty() || limit <= 0) {
            return List.of();
        }
        return findOwned(states, owner, Integer.MAX_VALUE).stream()
                .filter(o -> wanted.get(Partitions.of(o.instance(), count)))
                .sorted(Comparator.comparing((OwnedInstance o) -> o.instance().scheduledTime())
                        .thenComparing(o -> o.instance().id()))
                .limit(limit)
                .toList();
    }

    /**
     * Like {@link #findOwned(Set, String, int, int[])} for every owner, less the instances held by any of {@code
     * holders}: those with no owner or an owner not listed. An owner reads so what nodes that are gone left in its
     * partitions, without reading (and paging past) the rows in flight on the live nodes, of which a busy cluster has
     * thousands: a page of those would hide the rows to take over behind them.
     *
     * <p>The default reads what that {@code findOwned} finds and leaves the listed holders' rows out; a store that
     * can should leave them out in its query. Thread-safe.
     *
     * @param holders the owners whose rows are left out (the live nodes); empty: every row of the states
     * @throws NullPointerException when {@code states}, {@code holders} or {@code partitions} is null
     */
    default List<OwnedInstance> findHeldByNoneOf(
            Set<InstanceState> states, Set<String> holders, int limit, int[] partitions) {
        Objects.requireNonNull(holders, "holders");
        if (limit <= 0) {
            return List.of();
        }
        return findOwned(states, null, Integer.MAX_VALUE, partitions).stream()
                .filter(o -> o.owner() == null || !holders.contains(o.owner()))
                .limit(limit)
                .toList();
    }

    /**
     * Gives a partition ({@link Partitions#of(TaskInstance, int)} for {@code count}) to up to {@code limit} instances
     * that have none: those written before the store kept partitions, or before it knew the count. Only instances
     * that can still change are given one (in a state with {@link InstanceState#successors()}: unfinished ones first,
     * then DEAD ones, which a replay brings back). Instances that finished for good (SUCCESS, SKIPPED, CANCELLED) are
     * never read by partition: they keep none until retention deletes them, so an upgrade rewrites no history.
     *
     * <p>An engine calls it in small batches at start, until it returns 0. Nodes may call it at the same time: an
     * instance's partition is a function of columns that never change, and a row that has a partition is never
     * given another. A store that keeps partitions in its rows finds the rows by an index on (state, partition) and
     * fills them in one short transaction per call. The default: 0, a store that computes partitions as it reads.
     * Thread-safe.
     *
     * @param count the cluster's partition count, as {@link io.ax.core.cluster.PartitionLeases#partitions} returned
     * @param limit at most this many instances are given a partition; at least 1
     * @return how many instances without a partition it found, each of which has one now (given by this call, or by
     *     another node's at the same moment); 0 when none is left
     * @throws IllegalArgumentException when {@code count} is not between 1 and {@link
     *     io.ax.core.cluster.PartitionLeases#MAX_PARTITIONS}, or {@code limit} is below 1
     * @throws io.ax.core.cluster.PartitionCountMismatchException when the store knows another count ({@link
     *     #partitionCount()})
     */
    default int fillPartitions(int count, int limit) {
        Partitions.requireCount(count);
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        return 0;
    }

    /** The partitions asked for, as a set; numbers outside 0 to the largest count are left out: they match nothing. */
    private static BitSet partitionSet(int[] partitions) {
        Objects.requireNonNull(partitions, "partitions");
        BitSet set = new BitSet();
        for (int p : partitions) {
            if (p >= 0 && p < PartitionLeases.MAX_PARTITIONS) {
                set.set(p);
            }
        }
        return set;
    }

    /** The instance of {@code taskName} with {@code key}, if any. */
    Optional<TaskInstance> findByKey(String taskName, String key);

    /**
     * Of the tasks given with a key each, those whose instance with that key is SCHEDULED: what a new owner of
     * partitions asks of every task whose recorded next fire it did not load. The default asks {@link #findByKey} for
     * each; a store that can reads them in a few statements.
     *
     * @param keyOfTask task name -> key
     * @return the names of those tasks
     */
    default Set<String> scheduledWithKey(Map<String, String> keyOfTask) {
        Set<String> scheduled = new java.util.HashSet<>();
        keyOfTask.forEach((task, key) -> findByKey(task, key)
                .filter(i -> i.state() == InstanceState.SCHEDULED)
                .ifPresent(i -> scheduled.add(task)));
        return scheduled;
    }

    /** The payload an instance was scheduled with; empty when it has none or is unknown. */
    Optional<byte[]> payload(String instanceId);

    /**
     * Moves a SCHEDULED instance's due time from {@code from} to {@code to}, if it is still SCHEDULED and due at
     * {@code from}, and audits it as a SCHEDULED -&gt; SCHEDULED row (a new due time, not a new state).
     *
     * @return true if moved; false if the instance is unknown, no longer SCHEDULED or no longer due at {@code from}
     */
    boolean reschedule(String instanceId, Instant from, Instant to, String node, Instant at);

    /** Instances in any of {@code states}, oldest scheduled time first, at most {@code limit}. */
    List<TaskInstance> findByStates(Set<InstanceState> states, int limit);

    /** Records a task definition, or updates its trigger description; keeps its next fire time and paused flag. */
    void saveTask(String name, String trigger, Instant at);

    /**
     * Records many task definitions at once, like {@link #saveTask} for each, in one round trip where the store
     * can.
     *
     * @param triggers task name -> trigger description
     */
    default void saveTasks(java.util.Map<String, String> triggers, Instant at) {
        triggers.forEach((name, trigger) -> saveTask(name, trigger, at));
    }

    /** What the store holds of a task, if anything. */
    Optional<StoredTask> findTask(String name);

    /** Every task the store holds, by name. */
    List<StoredTask> findTasks();

    /**
     * The names of the tasks the store holds paused: what every node reads each heartbeat to follow the pauses taken
     * on the others, so it must stay cheap with many tasks. The default filters {@link #findTasks()}; a store that
     * can reads the paused rows alone.
     */
    default Set<String> pausedTasks() {
        Set<String> paused = new HashSet<>();
        for (StoredTask t : findTasks()) {
            if (t.paused()) {
                paused.add(t.name());
            }
        }
        return paused;
    }

    /** Pauses or resumes a task's trigger; false when the task is unknown. */
    boolean setPaused(String name, boolean paused, Instant at);

    /** The instance with {@code id}, if known. */
    Optional<TaskInstance> find(String id);

    /** The newest instances of a task, newest scheduled time first, at most {@code limit}. */
    List<TaskInstance> findByTask(String taskName, int limit);

    /**
     * What kind of store this is and where it keeps its data, for people; never with credentials. The default names
     * the implementation's class.
     */
    default StoreDescription describe() {
        return new StoreDescription(getClass().getSimpleName(), null);
    }

    /**
     * The instances that meet {@code query}'s criteria, newest scheduled time first (ties by id, descending),
     * skipping {@code query.offset()}, at most {@code query.limit()}: what an operator searches by task, state and
     * time range.
     */
    List<TaskInstance> search(InstanceQuery query);

    /** Every audited transition of an instance, oldest first; empty if unknown. */
    List<AuditEntry> auditTrail(String instanceId);

    /**
     * How many times the running attempt of each instance was taken over from its node since the instance was
     * created or last replayed ({@link AuditEntry#takeoversSinceReplay}). A store should answer for many instances in
     * a few reads: a node that died may leave thousands of attempts, taken over together. This default reads each
     * trail.
     *
     * @return the count of each instance that has one above 0; an instance without is absent
     */
    default Map<String, Integer> takeovers(Collection<String> instanceIds) {
        Map<String, Integer> counts = new HashMap<>();
        for (String id : instanceIds) {
            int n = AuditEntry.takeoversSinceReplay(auditTrail(id));
            if (n > 0) {
                counts.put(id, n);
            }
        }
        return counts;
    }

    /** Stores the dead letter of an instance that went DEAD, replacing an older one of the same instance. */
    void saveDeadLetter(DeadLetter deadLetter);

    /**
     * Removes the dead letter of an instance, when an operator replays it (the instance leaves DEAD).
     *
     * @return false when the instance had none
     */
    boolean deleteDeadLetter(String instanceId);

    /** Dead letters, newest first, skipping {@code offset}, at most {@code limit}. */
    List<DeadLetter> deadLetters(int offset, int limit);

    /** How many dead letters are stored. */
    long deadLetterCount();

    /**
     * The instances SCHEDULED and due before {@code now}, counted up to {@code countUpTo}, with the earliest due time
     * among them; a paused task's are left out. Read now and then in the background for health and metrics, so it
     * must stay cheap: a store that can should answer from its due-time index. The default reads the due instances.
     */
    default DueCount dueCount(Instant now, int countUpTo) {
        Set<String> paused = pausedTasks();
        long count = 0;
        Instant oldest = null;
        List<TaskInstance> due = findScheduled(now, null, null, countUpTo);
        for (TaskInstance i : due) {
            if (!paused.contains(i.taskName())) {
                count++;
                oldest = oldest == null || i.scheduledTime().isBefore(oldest) ? i.scheduledTime() : oldest;
            }
        }
        return new DueCount(count, due.size() >= countUpTo, oldest);
    }

    /**
     * The dead letter of one instance, if it has one. The default pages through {@link #deadLetters}; a store that
     * can find it by its instance answers with one read.
     */
    default java.util.Optional<DeadLetter> deadLetter(String instanceId) {
        int page = 500;
        for (int offset = 0; ; offset += page) {
            List<DeadLetter> some = deadLetters(offset, page);
            for (DeadLetter d : some) {
                if (d.instanceId().equals(instanceId)) {
                    return java.util.Optional.of(d);
                }
            }
            if (some.size() < page) {
                return java.util.Optional.empty();
            }
        }
    }

    /**
     * Deletes old history: up to {@code limit} finished instances with their audit rows and dead letters. An
     * instance is deleted only while it is in a final state, and only when it finished long enough ago:
     *
     * <ul>
     *   <li>SUCCESS, SKIPPED and CANCELLED instances that finished before {@code finishedBefore};
     *   <li>DEAD instances that died before {@code deadBefore} (their own, usually longer, retention, so that an
     *       operator has time to read and replay them), together with their dead letter.
     * </ul>
     *
     * <p>"Finished" is the time of the instance's last transition ({@link TaskInstance#updatedAt()}): a final
     * instance changes no more, so its last change is the one that finished it (and the time of its last audit
     * row). Instances in any other state are never deleted, however old, and neither is a DEAD instance that an
     * operator replays meanwhile: the deletion is conditional on the state, as every write is.
     *
     * <p>Dead letters that died before {@code deadBefore} and whose instance this store does not hold (a MEMORY
     * instance's: the engine keeps every dead letter in its configured store) are deleted too, within the same
     * {@code limit}, and counted in the result.
     *
     * <p>One short transaction, served by an index on (state, finish time): callers keep {@code limit} small
     * (hundreds) and call again while the result equals it. Safe to call from several nodes at once.
     *
     * @param finishedBefore SUCCESS, SKIPPED and CANCELLED instances finished before this are deleted
     * @param deadBefore DEAD instances (and orphaned dead letters) that died before this are deleted
     * @param limit at most this many instances (plus orphaned dead letters) are deleted; at least 1
     * @return how many instances (plus orphaned dead letters) were deleted; less than {@code limit} means nothing
     *     more was due
     * @throws IllegalArgumentException when {@code limit} is below 1
     */
    int deleteFinished(Instant finishedBefore, Instant deadBefore, int limit);

    // ---- activity ------------------------------------------------------------------------------------------------

    /**
     * The per-minute rollup of what the engines on this store ran, which every node on it shares; empty when the
     * store keeps none (the engine then keeps its own, in memory, for this node alone).
     */
    default java.util.Optional<ActivityStore> activity() {
        return java.util.Optional.empty();
    }

    // ---- task data ---------------------------------------------------------------------------------------------

    /**
     * The small data that tasks keep between runs, with this store's rows (see {@link TaskDataStore}); empty when the
     * store keeps none, and a task that needs it is then refused where it is defined. The in-memory and JDBC stores
     * keep it.
     */
    default java.util.Optional<TaskDataStore> taskData() {
        return java.util.Optional.empty();
    }

    // ---- runtime task definitions ------------------------------------------------------------------------------

    /**
     * Stores a task definition registered at runtime (version 1) and audits it as {@code REGISTERED}, in one
     * transaction.
     *
     * @return false when a definition of that name exists already; nothing was written
     * @throws UnsupportedOperationException when this store keeps no definitions
     */
    default boolean insertDefinition(StoredDefinition definition) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no task definitions");
    }

    /**
     * Replaces a definition with its next version ({@code definition.version()}), if the stored one is still the
     * version before it, and audits it as {@code UPDATED}, in one transaction.
     *
     * @return false when the definition is gone or another update came first; nothing was written
     */
    default boolean updateDefinition(StoredDefinition definition) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no task definitions");
    }

    /**
     * Deletes a definition, if it is still at {@code version}, and audits it as {@code UNREGISTERED}, in one
     * transaction.
     *
     * @return false when it is gone or at another version; nothing was written
     */
    default boolean deleteDefinition(String name, long version, String node, Instant at) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no task definitions");
    }

    /** Every stored definition, by name. */
    default List<StoredDefinition> findDefinitions() {
        return List.of();
    }

    /** The audited changes of a definition, oldest first; empty when it never had any. */
    default List<DefinitionChange> definitionHistory(String name) {
        return List.of();
    }
}
