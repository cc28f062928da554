package io.ax.core.store;

import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.DuplicateInstanceException;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.cluster.LocalLeaderLease;
import io.ax.core.cluster.LocalNodeRegistry;
import io.ax.core.cluster.LocalPartitionLeases;
import io.ax.core.cluster.PartitionCountMismatchException;
import io.ax.core.cluster.PartitionLeases;
import io.ax.core.cluster.Partitions;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.LongSupplier;

/**
 * Keeps everything in this JVM: fast, and lost when the process ends. To bound memory it forgets the oldest
 * finished instances (with their audit rows) beyond a retention limit; unfinished instances are never forgotten.
 * Retention by age ({@link #deleteFinished}) comes on top: it reads every instance held, which the count limit
 * keeps bounded. Thread-safe.
 *
 * <p>Why it is long: it is the whole {@code InstanceStore} contract under one lock, every method a few lines; the
 * contract's length, not this class's.
 */
public final class InMemoryInstanceStore implements InstanceStore, ClusterStore {

    /**
     * One instance with its audit rows and its partition (null when it was written before the count was known);
     * mutated only inside {@link ConcurrentHashMap#compute} on its key.
     */
    private record Row(
            TaskInstance instance,
            List<AuditEntry> audit,
            byte[] payload,
            String owner,
            long epoch,
            Integer partition) {

        Row with(TaskInstance changed) {
            return new Row(changed, audit, payload, owner, epoch, partition);
        }

        /** The row after a change to {@code newOwner}, fenced by {@code fence} (0: the epoch stays). */
        Row with(TaskInstance changed, String newOwner, long fence) {
            return new Row(changed, audit, payload, newOwner, fence > 0 ? fence : epoch, partition);
        }

        Row inPartition(int p) {
            return new Row(instance, audit, payload, owner, epoch, p);
        }

        boolean in(BitSet partitions) {
            return partition != null && partitions.get(partition);
        }

        OwnedInstance owned() {
            return new OwnedInstance(instance, owner, epoch);
        }
    }

    private final ConcurrentHashMap<String, Row> rows = new ConcurrentHashMap<>();
    /** (task, key) -> instance id: the uniqueness constraint. */
    private final ConcurrentHashMap<TaskKey, String> byKey = new ConcurrentHashMap<>();
    /** Instances in a state between dispatch and their end: the index {@link #findOwned} reads. */
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

    private static final Set<InstanceState> IN_FLIGHT_STATES = EnumSet.of(
            InstanceState.DISPATCHED,
            InstanceState.RUNNING,
            InstanceState.FAILED,
            InstanceState.TIMEOUT,
            InstanceState.RETRYING);

    /** SCHEDULED instances by due time: the index {@link #findScheduled} reads. */
    private final ConcurrentSkipListSet<Due> scheduled = new ConcurrentSkipListSet<>();

    private final ConcurrentHashMap<String, StoredTask> tasks = new ConcurrentHashMap<>();

    private final int maxFinished;
    /**
     * The cluster of the engines that share this store in one JVM: their leader lease, node registry and partitions,
     * on the system clock.
     */
    private final LocalLeaderLease lease = new LocalLeaderLease(AxClock.system());

    private final LocalNodeRegistry registry = new LocalNodeRegistry(AxClock.system());

    private final LocalPartitionLeases partitions =
            new LocalPartitionLeases(AxClock.system(), registry, count -> partitionCount = count);
    /**
     * The partition count {@link #partitions} last answered with; 0 until then. Every new instance is kept with its
     * partition for it, or without one while it is 0.
     */
    private volatile int partitionCount;
    /** The epochs partition-fenced writes must carry when kept by a node's ownership; see {@link #fencedByPartitions}. */
    private volatile java.util.function.IntToLongFunction ownedEpochs;

    /** The leader epoch now current, which fenced writes must carry; see {@link #fencedBy}. */
    private volatile LongSupplier currentEpoch = () -> lease.current().epoch();
    /** Guards {@link #finished} and {@link #deadLetters}: both are small, append-mostly structures. */
    private final Object retentionLock = new Object();

    private final Deque<String> finished = new ArrayDeque<>();

    private final InMemoryActivityStore activity = new InMemoryActivityStore();
    private final Deque<DeadLetter> deadLetters = new ArrayDeque<>();

    /** The cluster-wide limits' permits, beside the rows whose states say which are held. */
    private final InMemoryPermits permits = new InMemoryPermits(this);
    /** The data tasks keep between runs, shared by the engines on this store. */
    private final InMemoryTaskData taskData = new InMemoryTaskData();

    private record TaskKey(String task, String key) {}

    private record Due(Instant time, String id) implements Comparable<Due> {
        @Override
        public int compareTo(Due o) {
            int c = time.compareTo(o.time);
            return c != 0 ? c : id.compareTo(o.id);
        }
    }

    /** A store that remembers at most 10,000 finished instances and 1,000 dead letters. */
    public InMemoryInstanceStore() {
        this(10_000);
    }

    /**
     * @param maxFinished how many finished instances to remember; the oldest are forgotten first (dead letters are
     *     kept up to a tenth of it, at least 100)
     */
    public InMemoryInstanceStore(int maxFinished) {
        if (maxFinished < 1) {
            throw new IllegalArgumentException("maxFinished must be positive, was " + maxFinished);
        }
        this.maxFinished = maxFinished;
    }

    /** The leader lease of the engines that share this store; fenced writes check its epoch. */
    @Override
    public LocalLeaderLease leaderLease() {
        return lease;
    }

    /** The node registry of the engines that share this store. */
    @Override
    public LocalNodeRegistry nodeRegistry() {
        return registry;
    }

    /** The partitions of the engines that share this store, kept by the heartbeats of {@link #nodeRegistry}. */
    @Override
    public Optional<PartitionLeases> partitionLeases() {
        return Optional.of(partitions);
    }

    /** The permits of the engines that share this store, taken under one lock with the claims they are for. */
    @Override
    public Optional<Permits> permits() {
        return Optional.of(permits);
    }

    /**
     * Makes fenced writes check their epoch against {@code epoch}, the epoch of a lease kept in this JVM (see {@link
     * io.ax.core.cluster.LocalLeaderLease}).
     *
     * @return this store
     */
    public InMemoryInstanceStore fencedBy(LongSupplier epoch) {
        this.currentEpoch = Objects.requireNonNull(epoch, "epoch");
        return this;
    }

    /**
     * Makes partition-fenced writes check their epoch against {@code epochs}, the epochs at which a node owns the
     * partitions of a cluster of {@code count} (its own ownership, kept elsewhere), instead of this store's partitions:
     * a node's MEMORY instances are this store's rows, decided by the owner of their partition on that node. Rows
     * written from now on carry their partition.
     *
     * @return this store
     */
    public InMemoryInstanceStore fencedByPartitions(int count, java.util.function.IntToLongFunction epochs) {
        this.partitionCount = count;
        this.ownedEpochs = Objects.requireNonNull(epochs, "epochs");
        return this;
    }

    private void checkFence(long fence) {
        if (fence > 0 && currentEpoch.getAsLong() != fence) {
            throw new FencedOutException(fence);
        }
    }

    @Override
    public void create(TaskInstance instance, String reason) {
        Objects.requireNonNull(instance, "instance");
        if (instance.state() != InstanceState.CREATED) {
            throw new IllegalArgumentException(
                    "a new instance must be CREATED, " + instance.id() + " is " + instance.state());
        }
        create(instance, reason, null);
    }

    private void create(TaskInstance instance, String reason, byte[] payload) {
        TaskKey key = instance.key() == null ? null : new TaskKey(instance.taskName(), instance.key());
        if (key != null && byKey.putIfAbsent(key, instance.id()) != null) {
            throw new DuplicateInstanceException(instance.taskName(), instance.scheduledTime());
        }
        List<AuditEntry> audit = new ArrayList<>(6);
        audit.add(new AuditEntry(
                instance.id(),
                null,
                InstanceState.CREATED,
                instance.node(),
                instance.attempt(),
                instance.updatedAt(),
                reason));
        int count = partitionCount;
        Integer partition = count == 0 ? null : Partitions.of(instance, count);
        if (rows.putIfAbsent(instance.id(), new Row(instance, audit, payload, null, 0, partition)) != null) {
            if (key != null) {
                byKey.remove(key, instance.id());
            }
            throw new IllegalArgumentException("instance id " + instance.id() + " is already used");
        }
    }

    @Override
    public boolean[] schedule(List<NewFire> fires) {
        return schedule(fires, 0);
    }

    @Override
    public boolean[] schedule(List<NewFire> fires, long fence) {
        boolean byPartition = fires.stream().anyMatch(f -> f.partitionEpoch() > 0);
        if (fence > 0 || byPartition) {
            // a leader's or an owner's decisions: one at a time with the other fenced writes, so no takeover lands in
            // between; a group fenced by partitions while none moves, and all of it or none
            synchronized (this) {
                checkFence(fence);
                if (!byPartition) {
                    return insert(fires);
                }
                return partitions.whileUnmoved(() -> {
                    // the count cannot change either: the partitions learn it under the same lock
                    int count = partitionCount;
                    for (NewFire f : fires) {
                        checkPartition(count == 0 ? null : Partitions.of(f.instance(), count), f.partitionEpoch());
                    }
                    return insert(fires);
                });
            }
        }
        return insert(fires);
    }

    /**
     * Throws when a write fenced by {@code epoch} (above 0) of a row in {@code partition} (null: none) is stale. Called
     * while no partition moves ({@link LocalPartitionLeases#whileUnmoved}).
     */
    private void checkPartition(Integer partition, long epoch) {
        if (epoch == 0) {
            return;
        }
        if (partition == null) {
            throw new FencedOutException(FencedOutException.NO_PARTITION, epoch);
        }
        java.util.function.IntToLongFunction owned = ownedEpochs;
        if ((owned != null ? owned.applyAsLong(partition) : partitions.epoch(partition)) != epoch) {
            throw new FencedOutException(partition, epoch);
        }
    }

    private boolean[] insert(List<NewFire> fires) {
        boolean[] written = new boolean[fires.size()];
        for (int i = 0; i < written.length; i++) {
            NewFire fire = fires.get(i);
            TaskInstance scheduled = fire.instance();
            TaskInstance created = scheduled.with(InstanceState.CREATED, 0, scheduled.node(), scheduled.updatedAt());
            try {
                create(
                        created,
                        fire.reason(),
                        fire.payload() == null ? null : fire.payload().clone());
            } catch (DuplicateInstanceException e) {
                continue;
            }
            transition(new Transition(
                    scheduled.id(),
                    InstanceState.CREATED,
                    InstanceState.SCHEDULED,
                    0,
                    scheduled.node(),
                    scheduled.updatedAt(),
                    "due at " + scheduled.scheduledTime()));
            if (fire.series()) {
                tasks.computeIfPresent(
                        scheduled.taskName(),
                        (name, task) -> new StoredTask(
                                name, task.trigger(), scheduled.scheduledTime(), task.paused(), scheduled.updatedAt()));
            }
            written[i] = true;
        }
        return written;
    }

    @Override
    public List<TaskInstance> findByStates(Set<InstanceState> states, int limit) {
        return rows.values().stream()
                .map(Row::instance)
                .filter(i -> states.contains(i.state()))
                .sorted(Comparator.comparing(TaskInstance::scheduledTime))
                .limit(limit)
                .toList();
    }

    @Override
    public List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit) {
        if (IN_FLIGHT_STATES.containsAll(states)) {
            // the few instances in flight, not every instance remembered
            return inFlight.stream()
                    .map(rows::get)
                    .filter(r -> r != null && states.contains(r.instance().state()))
                    .filter(r -> owner == null || owner.equals(r.owner()))
                    .sorted(Comparator.comparing((Row r) -> r.instance().scheduledTime()))
                    .limit(limit)
                    .map(r -> r.owned())
                    .toList();
        }
        return rows.values().stream()
                .filter(r -> states.contains(r.instance().state()))
                .filter(r -> owner == null || owner.equals(r.owner()))
                .sorted(Comparator.comparing((Row r) -> r.instance().scheduledTime()))
                .limit(limit)
                .map(r -> r.owned())
                .toList();
    }

    @Override
    public List<OwnedInstance> findAll(Collection<String> ids) {
        List<OwnedInstance> out = new ArrayList<>(ids.size());
        for (String id : ids) {
            Row r = rows.get(id);
            if (r != null) {
                out.add(r.owned());
            }
        }
        return out;
    }

    @Override
    public List<TaskInstance> findScheduled(Instant before, Instant afterTime, String afterId, int limit) {
        Due from = afterTime == null ? null : new Due(afterTime, afterId == null ? "" : afterId);
        List<TaskInstance> out = new ArrayList<>(Math.min(limit, 1_024));
        for (Due due : from == null ? scheduled : scheduled.tailSet(from, false)) {
            if (out.size() >= limit || !due.time().isBefore(before)) {
                break;
            }
            Row row = rows.get(due.id());
            if (row != null
                    && row.instance().state() == InstanceState.SCHEDULED
                    && row.instance().scheduledTime().equals(due.time())) {
                out.add(row.instance());
            }
        }
        return out;
    }

    // ---- partitions ----------------------------------------------------------------------------------------------

    /** {@inheritDoc} Here: the count of {@link #partitionLeases()}, once it has been asked for it. */
    @Override
    public int partitionCount() {
        return partitionCount;
    }

    /** {@inheritDoc} Here: the index of due instances, walked from the cursor, skipping other partitions. */
    @Override
    public List<TaskInstance> findScheduled(
            Instant before, Instant afterTime, String afterId, int limit, int[] partitions) {
        Objects.requireNonNull(before, "before");
        BitSet wanted = partitionSet(partitions);
        Due from = afterTime == null ? null : new Due(afterTime, afterId == null ? "" : afterId);
        List<TaskInstance> out = new ArrayList<>();
        if (wanted.isEmpty()) {
            return out;
        }
        for (Due due : from == null ? scheduled : scheduled.tailSet(from, false)) {
            if (out.size() >= limit || !due.time().isBefore(before)) {
                break;
            }
            Row row = rows.get(due.id());
            if (row != null
                    && row.in(wanted)
                    && row.instance().state() == InstanceState.SCHEDULED
                    && row.instance().scheduledTime().equals(due.time())) {
                out.add(row.instance());
            }
        }
        return out;
    }

    @Override
    public List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit, int[] partitions) {
        Objects.requireNonNull(states, "states");
        BitSet wanted = partitionSet(partitions);
        Collection<Row> candidates = IN_FLIGHT_STATES.containsAll(states)
                ? inFlight.stream().map(rows::get).filter(Objects::nonNull).toList()
                : rows.values();
        return candidates.stream()
                .filter(r -> r.in(wanted) && states.contains(r.instance().state()))
                .filter(r -> owner == null || owner.equals(r.owner()))
                .sorted(Comparator.comparing((Row r) -> r.instance().scheduledTime())
                        .thenComparing(r -> r.instance().id()))
                .limit(Math.max(0, limit))
                .map(Row::owned)
                .toList();
    }

    @Override
    public int fillPartitions(int count, int limit) {
        Partitions.requireCount(count);
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        int known = partitionCount;
        if (known != 0 && known != count) {
            throw new PartitionCountMismatchException(known, count);
        }
        // unfinished instances first, then DEAD ones; those finished for good keep none, as in every store
        List<Row> found = rows.values().stream()
                .filter(r -> r.partition() == null
                        && !r.instance().state().successors().isEmpty())
                .sorted(Comparator.comparing((Row r) -> r.instance().state().isFinal()))
                .limit(limit)
                .toList();
        for (Row r : found) {
            rows.computeIfPresent(
                    r.instance().id(),
                    (id, row) -> row.partition() != null ? row : row.inPartition(Partitions.of(row.instance(), count)));
        }
        return found.size();
    }

    /** The partitions asked for, as a set; numbers no partition can have are left out, as they match no row. */
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

    @Override
    public Optional<TaskInstance> findByKey(String taskName, String key) {
        String id = byKey.get(new TaskKey(taskName, key));
        return id == null ? Optional.empty() : find(id);
    }

    @Override
    public Optional<byte[]> payload(String instanceId) {
        Row row = rows.get(instanceId);
        return row == null || row.payload() == null
                ? Optional.empty()
                : Optional.of(row.payload().clone());
    }

    @Override
    public boolean reschedule(String instanceId, Instant from, Instant to, String node, Instant at) {
        boolean[] moved = new boolean[1];
        rows.computeIfPresent(instanceId, (id, row) -> {
            TaskInstance in = row.instance();
            if (in.state() != InstanceState.SCHEDULED || !in.scheduledTime().equals(from)) {
                return row;
            }
            row.audit()
                    .add(new AuditEntry(
                            id,
                            InstanceState.SCHEDULED,
                            InstanceState.SCHEDULED,
                            node,
                            in.attempt(),
                            at,
                            "rescheduled from " + from + " to " + to));
            scheduled.remove(new Due(from, id));
            scheduled.add(new Due(to, id));
            moved[0] = true;
            return row.with(in.dueAt(to, node, at));
        });
        return moved[0];
    }

    /**
     * Records a note in the audit trail of an instance still in {@code state}: a row from that state to the same, at
     * the attempt it has (a wait for a permit, say); nothing for an instance gone or moved on.
     */
    void note(String instanceId, InstanceState state, String node, Instant at, String reason) {
        rows.computeIfPresent(instanceId, (id, row) -> {
            TaskInstance in = row.instance();
            if (in.state() == state) {
                row.audit().add(new AuditEntry(id, state, state, node, in.attempt(), at, reason));
            }
            return row;
        });
    }

    @Override
    public void saveTask(String name, String trigger, Instant at) {
        tasks.compute(
                name,
                (n, task) -> task == null
                        ? new StoredTask(n, trigger, null, false, at)
                        : new StoredTask(n, trigger, task.nextFireTime(), task.paused(), at));
    }

    @Override
    public Optional<StoredTask> findTask(String name) {
        return Optional.ofNullable(tasks.get(name));
    }

    @Override
    public List<StoredTask> findTasks() {
        return tasks.values().stream()
                .sorted(Comparator.comparing(StoredTask::name))
                .toList();
    }

    @Override
    public boolean setPaused(String name, boolean paused, Instant at) {
        return tasks.computeIfPresent(
                        name, (n, task) -> new StoredTask(n, task.trigger(), task.nextFireTime(), paused, at))
                != null;
    }

    @Override
    public boolean transition(Transition t) {
        if (t.fence() > 0) {
            // fenced writes are the leader's: one at a time, so no takeover lands between the check and the write
            synchronized (this) {
                checkFence(t.fence());
                return applyUnmoved(t);
            }
        }
        return applyUnmoved(t);
    }

    /** {@link #apply}, while no partition moves when the change is fenced by its partition. */
    private boolean applyUnmoved(Transition t) {
        return t.partitionEpoch() > 0 ? partitions.whileUnmoved(() -> apply(t)) : apply(t);
    }

    @Override
    public boolean[] transitionAll(List<Transition> transitions) {
        long fence = 0;
        long byPartition = 0;
        for (Transition t : transitions) {
            fence = Math.max(fence, t.fence());
            byPartition = Math.max(byPartition, t.partitionEpoch());
        }
        if (fence == 0 && byPartition == 0) {
            return InstanceStore.super.transitionAll(transitions);
        }
        synchronized (this) { // all or nothing, as in one transaction
            for (Transition t : transitions) {
                checkFence(t.fence());
            }
            if (byPartition == 0) {
                return applyEach(transitions);
            }
            return partitions.whileUnmoved(() -> {
                // every fence before any change: a row fenced out leaves the whole group unwritten
                for (Transition t : transitions) {
                    Row row = rows.get(t.instanceId());
                    if (row != null) {
                        checkPartition(row.partition(), t.partitionEpoch());
                    }
                }
                return applyEach(transitions);
            });
        }
    }

    private boolean[] applyEach(List<Transition> transitions) {
        boolean[] applied = new boolean[transitions.size()];
        for (int i = 0; i < applied.length; i++) {
            applied[i] = apply(transitions.get(i));
        }
        return applied;
    }

    /**
     * Applies a change where its conditions hold. A change fenced by its partition is checked inside the row's
     * compute, against the row's own partition, while no partition moves: see {@link #applyUnmoved}.
     */
    private boolean apply(Transition t) {
        boolean[] applied = new boolean[1];
        rows.computeIfPresent(t.instanceId(), (id, row) -> {
            checkPartition(row.partition(), t.partitionEpoch()); // throws before anything changed
            TaskInstance in = row.instance();
            if (in.state() != t.from()
                    || (t.dueAt() != null && !t.dueAt().equals(in.scheduledTime()))
                    || (t.expectedOwner() != null && !t.expectedOwner().equals(row.owner()))
                    || (in.state() == InstanceState.RUNNING && in.attempt() != t.attempt())) {
                return row;
            }
            row.audit().add(new AuditEntry(id, t.from(), t.to(), t.node(), t.attempt(), t.at(), t.reason()));
            applied[0] = true;
            if (IN_FLIGHT_STATES.contains(t.to())) {
                inFlight.add(id);
            } else {
                inFlight.remove(id);
            }
            if (t.to() == InstanceState.SCHEDULED) {
                scheduled.add(new Due(in.scheduledTime(), id));
            } else if (t.from() == InstanceState.SCHEDULED) {
                scheduled.remove(new Due(in.scheduledTime(), id));
            }
            // the epoch the change was decided at: the leader's, else its partition's
            long epoch = t.fence() > 0 ? t.fence() : t.partitionEpoch();
            return row.with(in.with(t.to(), t.attempt(), t.node(), t.at()), t.ownerAfter(row.owner()), epoch);
        });
        if (applied[0] && t.to().isFinal()) {
            retire(t.instanceId());
        }
        return applied[0];
    }

    private void retire(String id) {
        String forget = null;
        synchronized (retentionLock) {
            finished.addLast(id);
            if (finished.size() > maxFinished) {
                forget = finished.removeFirst();
            }
        }
        if (forget != null) {
            Row[] removed = new Row[1];
            // a replayed DEAD instance lives on: forget it only while it is still finished
            rows.computeIfPresent(forget, (key, row) -> {
                if (!row.instance().state().isFinal()) {
                    return row;
                }
                removed[0] = row;
                return null;
            });
            TaskInstance gone = removed[0] == null ? null : removed[0].instance();
            if (gone != null && gone.key() != null) {
                byKey.remove(new TaskKey(gone.taskName(), gone.key()), forget);
            }
        }
    }

    @Override
    public Optional<TaskInstance> find(String id) {
        Row row = rows.get(id);
        return row == null ? Optional.empty() : Optional.of(row.instance());
    }

    @Override
    public List<TaskInstance> findByTask(String taskName, int limit) {
        return rows.values().stream()
                .map(Row::instance)
                .filter(i -> i.taskName().equals(taskName))
                .sorted(Comparator.comparing(TaskInstance::scheduledTime).reversed())
                .limit(limit)
                .toList();
    }

    @Override
    public StoreDescription describe() {
        return StoreDescription.IN_MEMORY;
    }

    /** Reads every instance held: the in-memory store is bounded by its retention, and searches are rare. */
    @Override
    public List<TaskInstance> search(InstanceQuery query) {
        return rows.values().stream()
                .map(Row::instance)
                .filter(query::matches)
                .sorted(NEWEST_FIRST)
                .skip(query.offset())
                .limit(query.limit())
                .toList();
    }

    private static final Comparator<TaskInstance> NEWEST_FIRST = Comparator.comparing(TaskInstance::scheduledTime)
            .thenComparing(TaskInstance::id)
            .reversed();

    @Override
    public List<AuditEntry> auditTrail(String instanceId) {
        List<AuditEntry> copy = new ArrayList<>();
        rows.computeIfPresent(instanceId, (id, row) -> {
            copy.addAll(row.audit());
            return row;
        });
        return List.copyOf(copy);
    }

    @Override
    public void saveDeadLetter(DeadLetter deadLetter) {
        Objects.requireNonNull(deadLetter, "deadLetter");
        synchronized (retentionLock) {
            deadLetters.removeIf(d -> d.instanceId().equals(deadLetter.instanceId()));
            deadLetters.addFirst(deadLetter);
            if (deadLetters.size() > Math.max(100, maxFinished / 10)) {
                deadLetters.removeLast();
            }
        }
    }

    @Override
    public boolean deleteDeadLetter(String instanceId) {
        synchronized (retentionLock) {
            return deadLetters.removeIf(d -> d.instanceId().equals(instanceId));
        }
    }

    @Override
    public List<DeadLetter> deadLetters(int offset, int limit) {
        synchronized (retentionLock) {
            return deadLetters.stream().skip(offset).limit(limit).toList();
        }
    }

    @Override
    public Optional<DeadLetter> deadLetter(String instanceId) {
        synchronized (retentionLock) {
            return deadLetters.stream()
                    .filter(d -> d.instanceId().equals(instanceId))
                    .findFirst();
        }
    }

    @Override
    public long deadLetterCount() {
        synchronized (retentionLock) {
            return deadLetters.size();
        }
    }

    @Override
    public int deleteFinished(Instant finishedBefore, Instant deadBefore, int limit) {
        Objects.requireNonNull(finishedBefore, "finishedBefore");
        Objects.requireNonNull(deadBefore, "deadBefore");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        Set<String> deleted = new HashSet<>();
        for (Row candidate : rows.values()) {
            if (deleted.size() >= limit) {
                break;
            }
            if (!expired(candidate.instance(), finishedBefore, deadBefore)) {
                continue;
            }
            Row[] removed = new Row[1];
            // checked again on the row itself: an operator may have replayed a DEAD instance since it was read
            rows.computeIfPresent(candidate.instance().id(), (id, row) -> {
                if (!expired(row.instance(), finishedBefore, deadBefore)) {
                    return row;
                }
                removed[0] = row;
                return null;
            });
            if (removed[0] != null) {
                TaskInstance gone = removed[0].instance();
                if (gone.key() != null) {
                    byKey.remove(new TaskKey(gone.taskName(), gone.key()), gone.id());
                }
                deleted.add(gone.id());
            }
        }
        int orphans = 0;
        synchronized (retentionLock) {
            if (!deleted.isEmpty()) {
                finished.removeIf(deleted::contains);
            }
            for (Iterator<DeadLetter> it = deadLetters.iterator(); it.hasNext(); ) {
                DeadLetter letter = it.next();
                if (deleted.contains(letter.instanceId())) {
                    it.remove();
                } else if (deleted.size() + orphans < limit
                        && letter.diedAt().isBefore(deadBefore)
                        && !rows.containsKey(letter.instanceId())) {
                    it.remove(); // a MEMORY instance's letter, whose instance another store held
                    orphans++;
                }
            }
        }
        return deleted.size() + orphans;
    }

    /** Whether a finished instance is past its retention; an unfinished one never is. */
    private static boolean expired(TaskInstance instance, Instant finishedBefore, Instant deadBefore) {
        return switch (instance.state()) {
            case SUCCESS, SKIPPED, CANCELLED -> instance.updatedAt().isBefore(finishedBefore);
            case DEAD -> instance.updatedAt().isBefore(deadBefore);
            default -> false;
        };
    }

    /** How many instances are remembered (unfinished plus retained finished ones). */
    public int size() {
        return rows.size();
    }

    /** A snapshot of all remembered instances; for tests and diagnostics. */
    public List<TaskInstance> all() {
        return rows.values().stream().map(Row::instance).toList();
    }

    // ---- runtime task definitions ------------------------------------------------------------------------------

    /** Guards {@link #definitions} and {@link #definitionAudit}: a change and its audit row go together. */
    private final Object definitionsLock = new Object();

    private final Map<String, StoredDefinition> definitions = new java.util.TreeMap<>();
    private final List<DefinitionChange> definitionAudit = new ArrayList<>();

    @Override
    public boolean insertDefinition(StoredDefinition d) {
        if (d.version() != 1) {
            throw new IllegalArgumentException("a new definition has version 1, " + d.name() + " has " + d.version());
        }
        synchronized (definitionsLock) {
            if (definitions.putIfAbsent(d.name(), d) != null) {
                return false;
            }
            definitionAudit.add(
                    new DefinitionChange(d.name(), 1, "REGISTERED", d.node(), d.updatedAt(), d.definition()));
            return true;
        }
    }

    @Override
    public boolean updateDefinition(StoredDefinition d) {
        synchronized (definitionsLock) {
            StoredDefinition old = definitions.get(d.name());
            if (old == null || old.version() != d.version() - 1) {
                return false;
            }
            definitions.put(d.name(), d);
            definitionAudit.add(
                    new DefinitionChange(d.name(), d.version(), "UPDATED", d.node(), d.updatedAt(), d.definition()));
            return true;
        }
    }

    @Override
    public boolean deleteDefinition(String name, long version, String node, Instant at) {
        synchronized (definitionsLock) {
            StoredDefinition old = definitions.get(name);
            if (old == null || old.version() != version) {
                return false;
            }
            definitions.remove(name);
            definitionAudit.add(new DefinitionChange(name, version, "UNREGISTERED", node, at, null));
            return true;
        }
    }

    @Override
    public List<StoredDefinition> findDefinitions() {
        synchronized (definitionsLock) {
            return List.copyOf(definitions.values());
        }
    }

    @Override
    public List<DefinitionChange> definitionHistory(String name) {
        synchronized (definitionsLock) {
            return definitionAudit.stream().filter(c -> c.name().equals(name)).toList();
        }
    }

    /** The rollup of the engines that share this store in one JVM. */
    @Override
    public Optional<ActivityStore> activity() {
        return Optional.of(activity);
    }

    /** The data tasks keep between runs, shared by the engines on this store and gone with it. */
    @Override
    public Optional<TaskDataStore> taskData() {
        return Optional.of(taskData);
    }
}
