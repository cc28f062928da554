package io.ax.core.engine.writes;

import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.DefinitionChange;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceQuery;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.store.OwnedInstance;
import io.ax.core.store.StoreDescription;
import io.ax.core.store.StoredDefinition;
import io.ax.core.store.StoredTask;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The engine's view of its stores: MEMORY instances (ids starting with {@code m}, see {@link InstanceIds}) live in
 * an in-memory store of this process, everything else in the configured store. Task rows and dead letters always go
 * to the configured store, so an operator finds every dead letter in one place.
 *
 * <p>Why it is long: it is an {@link InstanceStore}, and routes each of that interface's methods by the ids it is given
 * (a read over both stores merges their answers in due order); each method is a few lines, and splitting them apart
 * would split one routing rule over several classes.
 */
public final class StoreRouter implements InstanceStore {

    private static final Comparator<TaskInstance> DUE_ORDER =
            Comparator.comparing(TaskInstance::scheduledTime).thenComparing(TaskInstance::id);

    private final InstanceStore durable;
    private final InMemoryInstanceStore memory;

    /**
     * Whether the configured store can check the leader's fences: only a store that keeps the leader lease in use
     * (see {@link io.ax.core.cluster.ClusterStore}) knows its epoch; a store without it gets the leader's writes
     * unfenced.
     */
    private volatile boolean leaderFences = true;
    /**
     * Whether the configured store can check partition fences: only a store that keeps the partition leases in use
     * knows their epochs; a store without them (one the application wraps, say) gets the owners' writes unfenced,
     * as it gets the leader's.
     */
    private volatile boolean partitionFences = true;

    /** Told of every change of the configured store's rows once it committed; null for none. */
    private volatile RecentCommits commits;

    public StoreRouter(InstanceStore durable, InMemoryInstanceStore memory) {
        this.durable = durable;
        this.memory = memory;
    }

    /**
     * Which fences the configured store can check.
     *
     * @param leader whether it keeps the leader lease in use
     * @param partitions whether it keeps the partition leases in use
     */
    public void durableFences(boolean leader, boolean partitions) {
        this.leaderFences = leader;
        this.partitionFences = partitions;
    }

    /**
     * Tells {@code commits} of every new instance and state change of the configured store that commits, whichever
     * part of the engine wrote it: a write inside a caller's transaction once that transaction commits, any other
     * at once.
     */
    public void recordCommits(RecentCommits commits) {
        this.commits = commits;
    }

    private void committed(Runnable record) {
        if (durable.inCallerTransaction()) {
            durable.afterCommit(record, () -> {});
        } else {
            record.run();
        }
    }

    private boolean[] recordChanges(List<Transition> transitions, boolean[] applied) {
        RecentCommits record = commits;
        if (record != null) {
            List<Transition> done = new ArrayList<>(applied.length);
            for (int i = 0; i < applied.length; i++) {
                if (applied[i]) {
                    done.add(transitions.get(i));
                }
            }
            if (!done.isEmpty()) {
                committed(() -> record.changed(done));
            }
        }
        return applied;
    }

    private boolean[] recordCreated(List<NewFire> fires, boolean[] written) {
        RecentCommits record = commits;
        if (record != null) {
            List<TaskInstance> done = new ArrayList<>(written.length);
            for (int i = 0; i < written.length; i++) {
                if (written[i]) {
                    done.add(fires.get(i).instance());
                }
            }
            if (!done.isEmpty()) {
                committed(() -> record.created(done));
            }
        }
        return written;
    }

    private Transition toDurable(Transition t) {
        Transition out = leaderFences ? t : t.unfenced();
        return partitionFences ? out : withoutPartitionFence(out);
    }

    private List<NewFire> toDurable(List<NewFire> fires) {
        return partitionFences ? fires : withoutPartitionFences(fires);
    }

    private long toDurable(long fence) {
        return leaderFences ? fence : 0;
    }

    public InMemoryInstanceStore memory() {
        return memory;
    }

    private InstanceStore of(String instanceId) {
        return InstanceIds.isMemory(instanceId) ? memory : durable;
    }

    @Override
    public void create(TaskInstance instance, String reason) {
        InstanceStore store = of(instance.id());
        store.create(instance, reason);
        RecentCommits record = commits;
        if (store == durable && record != null) {
            committed(() -> record.created(instance));
        }
    }

    /**
     * A change without its partition fence, for a store that cannot check it: the in-memory store of MEMORY
     * instances keeps no partitions of the cluster's (its rows have none, and no other node can write them, so there
     * is no next owner to be ordered against), and a store the application wraps keeps none in use. The leader fence
     * stays.
     */
    private static Transition withoutPartitionFence(Transition t) {
        return t.partitionEpoch() == 0 ? t : t.fencedByPartition(0);
    }

    /** New fires without their partition fences; see {@link #withoutPartitionFence}. */
    private static List<NewFire> withoutPartitionFences(List<NewFire> fires) {
        return fires.stream()
                .map(f -> f.partitionEpoch() == 0 ? f : f.fencedByPartition(0))
                .toList();
    }

    @Override
    public boolean transition(Transition transition) {
        return InstanceIds.isMemory(transition.instanceId())
                ? memory.transition(withoutPartitionFence(transition))
                : recorded(transition, durable.transition(toDurable(transition)));
    }

    private boolean recorded(Transition transition, boolean applied) {
        RecentCommits record = commits;
        if (applied && record != null) {
            committed(() -> record.changed(transition));
        }
        return applied;
    }

    @Override
    public boolean[] transitionAll(List<Transition> transitions) {
        return split(
                transitions,
                t -> InstanceIds.isMemory(t.instanceId()),
                (store, some) -> store == durable
                        ? recordChanges(
                                some,
                                durable.transitionAll(
                                        leaderFences && partitionFences
                                                ? some
                                                : some.stream()
                                                        .map(this::toDurable)
                                                        .toList()))
                        : store.transitionAll(some.stream()
                                .map(StoreRouter::withoutPartitionFence)
                                .toList()));
    }

    @Override
    public boolean[] schedule(List<NewFire> fires) {
        return split(
                fires,
                f -> InstanceIds.isMemory(f.instance().id()),
                (store, some) -> store == durable
                        ? recordCreated(some, durable.schedule(toDurable(some)))
                        : store.schedule(withoutPartitionFences(some)));
    }

    /** Sends each item to its store, in one call per store, keeping the results in the order of {@code items}. */
    private <T> boolean[] split(
            List<T> items,
            Predicate<T> inMemory,
            java.util.function.BiFunction<InstanceStore, List<T>, boolean[]> call) {
        List<T> toMemory = new ArrayList<>();
        for (T item : items) {
            if (inMemory.test(item)) {
                toMemory.add(item);
            }
        }
        if (toMemory.isEmpty()) {
            return call.apply(durable, items);
        }
        if (toMemory.size() == items.size()) {
            return call.apply(memory, items);
        }
        List<T> toDurable = new ArrayList<>(items.size() - toMemory.size());
        for (T item : items) {
            if (!inMemory.test(item)) {
                toDurable.add(item);
            }
        }
        boolean[] fromMemory = call.apply(memory, toMemory);
        boolean[] fromDurable = call.apply(durable, toDurable);
        boolean[] all = new boolean[items.size()];
        int m = 0;
        int d = 0;
        for (int i = 0; i < all.length; i++) {
            all[i] = inMemory.test(items.get(i)) ? fromMemory[m++] : fromDurable[d++];
        }
        return all;
    }

    @Override
    public boolean[] schedule(List<NewFire> fires, long fence) {
        return split(
                fires,
                f -> InstanceIds.isMemory(f.instance().id()),
                (store, some) -> store == durable
                        ? recordCreated(some, durable.schedule(toDurable(some), toDurable(fence)))
                        : store.schedule(withoutPartitionFences(some), fence));
    }

    /** The configured store's: a caller's transaction is one of its own, and MEMORY instances follow it too. */
    @Override
    public boolean inCallerTransaction() {
        return durable.inCallerTransaction();
    }

    @Override
    public void afterCommit(Runnable onCommit, Runnable onRollback) {
        durable.afterCommit(onCommit, onRollback);
    }

    @Override
    public List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit) {
        List<OwnedInstance> all = new ArrayList<>(durable.findOwned(states, owner, limit));
        all.addAll(memory.findOwned(states, owner, limit));
        return all;
    }

    @Override
    public List<OwnedInstance> findAll(Collection<String> ids) {
        List<String> inMemory = ids.stream().filter(InstanceIds::isMemory).toList();
        if (inMemory.isEmpty()) {
            return durable.findAll(ids);
        }
        List<OwnedInstance> all = new ArrayList<>(memory.findAll(inMemory));
        all.addAll(durable.findAll(
                ids.stream().filter(id -> !InstanceIds.isMemory(id)).toList()));
        return all;
    }

    @Override
    public List<TaskInstance> findByStates(Set<InstanceState> states, int limit) {
        return merge(s -> s.findByStates(states, limit), Comparator.comparing(TaskInstance::scheduledTime), limit);
    }

    @Override
    public List<TaskInstance> findScheduled(Instant before, Instant afterTime, String afterId, int limit) {
        return merge(s -> s.findScheduled(before, afterTime, afterId, limit), DUE_ORDER, limit);
    }

    @Override
    public List<TaskInstance> findByTask(String taskName, int limit) {
        return merge(
                s -> s.findByTask(taskName, limit),
                Comparator.comparing(TaskInstance::scheduledTime).reversed(),
                limit);
    }

    // ---- partitions: the configured store's ---------------------------------------------------------------------
    // MEMORY instances are left out of the partition reads for now: the in-memory store of this process keeps no
    // partitions of the cluster's, and its instances are this process's whoever owns their task's partition.

    @Override
    public int partitionCount() {
        return durable.partitionCount();
    }

    @Override
    public List<TaskInstance> findScheduled(
            Instant before, Instant afterTime, String afterId, int limit, int[] partitions) {
        return durable.findScheduled(before, afterTime, afterId, limit, partitions);
    }

    @Override
    public Instant oldestDue(Instant now, int[] partitions) {
        return durable.oldestDue(now, partitions);
    }

    /** Both stores' rows of those partitions, as {@link #findOwned(Set, String, int)} reads both. */
    @Override
    public List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit, int[] partitions) {
        List<OwnedInstance> all = new ArrayList<>(durable.findOwned(states, owner, limit, partitions));
        all.addAll(memory.findOwned(states, owner, limit, partitions));
        return all;
    }

    /** Both stores' rows, as {@link #findOwned(Set, String, int, int[])} reads both. */
    @Override
    public List<OwnedInstance> findHeldByNoneOf(
            Set<InstanceState> states, Set<String> holders, int limit, int[] partitions) {
        List<OwnedInstance> all = new ArrayList<>(durable.findHeldByNoneOf(states, holders, limit, partitions));
        all.addAll(memory.findHeldByNoneOf(states, holders, limit, partitions));
        return all;
    }

    @Override
    public int fillPartitions(int count, int limit) {
        return durable.fillPartitions(count, limit);
    }

    /** The configured store's: MEMORY instances are in memory whatever it is. */
    @Override
    public StoreDescription describe() {
        return durable.describe();
    }

    /** Both stores' matches, merged from their first; then the page asked for. */
    @Override
    public List<TaskInstance> search(InstanceQuery query) {
        InstanceQuery fromStart = query.fromStart();
        List<TaskInstance> merged = merge(
                s -> s.search(fromStart),
                Comparator.comparing(TaskInstance::scheduledTime)
                        .thenComparing(TaskInstance::id)
                        .reversed(),
                fromStart.limit());
        return merged.stream().skip(query.offset()).limit(query.limit()).toList();
    }

    /** Both stores' answers as one list in {@code order}; each store's own order is kept among its rows. */
    private List<TaskInstance> merge(
            Function<InstanceStore, List<TaskInstance>> query, Comparator<TaskInstance> order, int limit) {
        List<TaskInstance> fromMemory = query.apply(memory);
        List<TaskInstance> fromDurable = query.apply(durable);
        if (fromMemory.isEmpty()) {
            return fromDurable;
        }
        if (fromDurable.isEmpty()) {
            return fromMemory;
        }
        List<TaskInstance> merged = new ArrayList<>(Math.min(limit, fromMemory.size() + fromDurable.size()));
        int m = 0;
        int d = 0;
        while (merged.size() < limit && (m < fromMemory.size() || d < fromDurable.size())) {
            boolean takeMemory = d == fromDurable.size()
                    || (m < fromMemory.size() && order.compare(fromMemory.get(m), fromDurable.get(d)) < 0);
            merged.add(takeMemory ? fromMemory.get(m++) : fromDurable.get(d++));
        }
        return merged;
    }

    @Override
    public Optional<TaskInstance> findByKey(String taskName, String key) {
        Optional<TaskInstance> found = durable.findByKey(taskName, key);
        return found.isPresent() ? found : memory.findByKey(taskName, key);
    }

    @Override
    public Set<String> scheduledWithKey(Map<String, String> keyOfTask) {
        Set<String> scheduled = new java.util.HashSet<>(durable.scheduledWithKey(keyOfTask));
        scheduled.addAll(memory.scheduledWithKey(keyOfTask));
        return scheduled;
    }

    @Override
    public Optional<byte[]> payload(String instanceId) {
        return of(instanceId).payload(instanceId);
    }

    @Override
    public boolean reschedule(String instanceId, Instant from, Instant to, String node, Instant at) {
        return of(instanceId).reschedule(instanceId, from, to, node, at);
    }

    @Override
    public Optional<TaskInstance> find(String id) {
        return of(id).find(id);
    }

    @Override
    public List<AuditEntry> auditTrail(String instanceId) {
        return of(instanceId).auditTrail(instanceId);
    }

    @Override
    public Map<String, Integer> takeovers(Collection<String> instanceIds) {
        List<String> inMemory =
                instanceIds.stream().filter(InstanceIds::isMemory).toList();
        if (inMemory.isEmpty()) {
            return durable.takeovers(instanceIds);
        }
        Map<String, Integer> counts = new HashMap<>(memory.takeovers(inMemory));
        counts.putAll(durable.takeovers(
                instanceIds.stream().filter(id -> !InstanceIds.isMemory(id)).toList()));
        return counts;
    }

    /**
     * Deletes old history from the configured store first and then, with what is left of {@code limit}, this
     * process's finished MEMORY instances; see {@link InstanceStore#deleteFinished}.
     */
    @Override
    public int deleteFinished(Instant finishedBefore, Instant deadBefore, int limit) {
        int deleted = durable.deleteFinished(finishedBefore, deadBefore, limit);
        return deleted < limit ? deleted + memory.deleteFinished(finishedBefore, deadBefore, limit - deleted) : deleted;
    }

    // ---- tasks and dead letters: always the configured store ---------------------------------------------

    @Override
    public void saveTask(String name, String trigger, Instant at) {
        durable.saveTask(name, trigger, at);
    }

    @Override
    public void saveTasks(Map<String, String> triggers, Instant at) {
        durable.saveTasks(triggers, at);
    }

    @Override
    public Optional<StoredTask> findTask(String name) {
        return durable.findTask(name);
    }

    @Override
    public Set<String> tasksWithLiveFire() {
        Set<String> names = new java.util.HashSet<>(durable.tasksWithLiveFire());
        names.addAll(memory.tasksWithLiveFire());
        return names;
    }

    @Override
    public List<StoredTask> findTasks() {
        return durable.findTasks();
    }

    @Override
    public Set<String> pausedTasks() {
        return durable.pausedTasks();
    }

    @Override
    public boolean setPaused(String name, boolean paused, Instant at) {
        return durable.setPaused(name, paused, at);
    }

    @Override
    public void saveDeadLetter(DeadLetter deadLetter) {
        durable.saveDeadLetter(deadLetter);
    }

    @Override
    public boolean deleteDeadLetter(String instanceId) {
        return durable.deleteDeadLetter(instanceId);
    }

    @Override
    public List<DeadLetter> deadLetters(int offset, int limit) {
        return durable.deadLetters(offset, limit);
    }

    @Override
    public long deadLetterCount() {
        return durable.deadLetterCount();
    }

    /** Both stores' due instances: the MEMORY executions due and not started count as much as the others. */
    @Override
    public io.ax.core.store.DueCount dueCount(Instant now, int countUpTo) {
        return durable.dueCount(now, countUpTo).plus(memory.dueCount(now, countUpTo));
    }

    @Override
    public java.util.Optional<DeadLetter> deadLetter(String instanceId) {
        return durable.deadLetter(instanceId);
    }

    // runtime task definitions live in the configured store, shared by the cluster

    @Override
    public boolean insertDefinition(StoredDefinition definition) {
        return durable.insertDefinition(definition);
    }

    @Override
    public boolean updateDefinition(StoredDefinition definition) {
        return durable.updateDefinition(definition);
    }

    @Override
    public boolean deleteDefinition(String name, long version, String node, Instant at) {
        return durable.deleteDefinition(name, version, node, at);
    }

    @Override
    public List<StoredDefinition> findDefinitions() {
        return durable.findDefinitions();
    }

    @Override
    public List<DefinitionChange> definitionHistory(String name) {
        return durable.definitionHistory(name);
    }
}
