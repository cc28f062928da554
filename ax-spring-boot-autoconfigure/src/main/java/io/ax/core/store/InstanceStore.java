package io.ax.core.store;

import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.DuplicateInstanceException;
import io.ax.core.IllegalTransitionException;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where instances, their audit log and dead letters live. Implementations are thread-safe. Every change of an
 * instance is conditional on its current state and appends its audit row atomically with it, so a late or duplicate
 * writer loses instead of overwriting.
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

    /** The instance of {@code taskName} with {@code key}, if any. */
    Optional<TaskInstance> findByKey(String taskName, String key);

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
