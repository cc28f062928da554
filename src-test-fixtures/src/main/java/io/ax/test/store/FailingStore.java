package io.ax.test.store;

import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.PartitionLeases;
import io.ax.core.store.InstanceQuery;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.store.OwnedInstance;
import io.ax.core.store.StoredTask;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A store that fails on command, in front of a real one: {@link #down} makes every call fail (an outage: reads and
 * writes), {@link #failWrites} makes the next writes fail (a deadlock, a dropped connection), with the wrapped store
 * untouched. A failed call changes nothing. Counts the calls it failed. {@link #afterRead} holds a read that
 * answered, as a slow store would; {@link #beforeTransitions} holds (or fails) a group of state changes before it
 * reaches the store. The wrapped store's lease, registry and partitions (when it keeps them) are passed through and
 * never fail: an engine test of the store's failures keeps its leader. Every write reaches the wrapped store as it was
 * given, with its fences (the leader's epoch, a partition's).
 */
public final class FailingStore implements InstanceStore, ClusterStore {

    /** The failure this store injects. */
    public static final class InjectedFailure extends RuntimeException {
        InjectedFailure(String what) {
            super("injected store failure: " + what);
        }
    }

    private final InstanceStore store;
    private volatile boolean down;
    private final AtomicInteger writesToFail = new AtomicInteger();
    private final AtomicInteger schedulesToFail = new AtomicInteger();
    private final AtomicLong failed = new AtomicLong();
    private volatile Consumer<String> afterRead = what -> {};
    private volatile Consumer<List<Transition>> beforeTransitions = transitions -> {};
    private volatile Consumer<InFlightRead> inFlightReads = read -> {};

    /**
     * A read of rows in flight ({@code findOwned}).
     *
     * @param owner the node whose rows were asked for, or null for every node's
     * @param partitions the partitions whose rows were asked for, or null for every partition's
     */
    public record InFlightRead(String owner, int[] partitions) {
        @Override
        public String toString() {
            return "read of " + (owner == null ? "every node" : owner) + "'s rows in flight in "
                    + (partitions == null ? "every partition" : "partitions " + java.util.Arrays.toString(partitions));
        }
    }

    /** @param store a store that keeps its own lease and registry, such as the in-memory store */
    public <S extends InstanceStore & ClusterStore> FailingStore(S store) {
        this.store = store;
    }

    @Override
    public LeaderLease leaderLease() {
        return ((ClusterStore) store).leaderLease();
    }

    @Override
    public NodeRegistry nodeRegistry() {
        return ((ClusterStore) store).nodeRegistry();
    }

    /**
     * The wrapped store's partitions, never failing, as its lease: the partitions whose epochs the wrapped store's
     * fenced writes are checked against, and from which it learns the count it writes rows with.
     */
    @Override
    public Optional<PartitionLeases> partitionLeases() {
        return ((ClusterStore) store).partitionLeases();
    }

    /** Every call fails until {@link #up}. */
    public void down() {
        down = true;
    }

    public void up() {
        down = false;
    }

    /** The next {@code n} writes fail, whatever they write. */
    public void failWrites(int n) {
        writesToFail.set(n);
    }

    /** The next {@code n} writes of new instances fail (the store refuses them, answering everything else). */
    public void failSchedules(int n) {
        schedulesToFail.set(n);
    }

    /** Calls failed so far. */
    public long failed() {
        return failed.get();
    }

    /**
     * Runs {@code hook} after each read that answered, on the reading thread, with the read's name ({@code
     * "findAll"}, say) before the answer is returned: a test holds a read there, as a slow store would, to order
     * its answer against what other threads do meanwhile.
     */
    public void afterRead(Consumer<String> hook) {
        afterRead = hook;
    }

    /**
     * Runs {@code hook} before each call that changes states ({@code transition}, {@code transitionAll}), on the
     * writing thread, with the changes it carries: a test holds a write there, to order it against what other
     * threads do meanwhile, or fails it by throwing {@link #injected} (nothing is then written).
     */
    public void beforeTransitions(Consumer<List<Transition>> hook) {
        beforeTransitions = hook;
    }

    /**
     * Runs {@code hook} before each read of rows in flight, on the reading thread, with what it asks for: a test sees
     * which rows a node reads.
     */
    public void inFlightReads(Consumer<InFlightRead> hook) {
        inFlightReads = hook;
    }

    /** A failure for a hook to throw: counted as failed, like those this store injects on its own. */
    public InjectedFailure injected(String what) {
        failed.incrementAndGet();
        return new InjectedFailure(what);
    }

    private <T> T read(String what, Supplier<T> call) {
        if (down) {
            failed.incrementAndGet();
            throw new InjectedFailure(what + " (store down)");
        }
        T answer = call.get();
        afterRead.accept(what);
        return answer;
    }

    /**
     * A call that fails only in an outage, uncounted: no write failure to take, no read hook to run, so that the
     * engine's background flushes never change what a test counts.
     */
    private <T> T unlessDown(String what, Supplier<T> call) {
        if (down) {
            throw new InjectedFailure(what + " (store down)");
        }
        return call.get();
    }

    private <T> T write(String what, Supplier<T> call) {
        if (down) {
            failed.incrementAndGet();
            throw new InjectedFailure(what + " (store down)");
        }
        if (writesToFail.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            failed.incrementAndGet();
            throw new InjectedFailure(what);
        }
        return call.get();
    }

    private void write(String what, Runnable call) {
        write(what, () -> {
            call.run();
            return null;
        });
    }

    @Override
    public void create(TaskInstance instance, String reason) {
        write("create", () -> store.create(instance, reason));
    }

    @Override
    public boolean transition(Transition transition) {
        return write("transition", () -> {
            beforeTransitions.accept(List.of(transition));
            return store.transition(transition);
        });
    }

    @Override
    public boolean[] transitionAll(List<Transition> transitions) {
        return write("transitionAll", () -> {
            beforeTransitions.accept(List.copyOf(transitions));
            return store.transitionAll(transitions);
        });
    }

    /** The wrapped store's, never failing: it decides nothing, it only waits for the caller's transaction. */
    @Override
    public boolean inCallerTransaction() {
        return store.inCallerTransaction();
    }

    @Override
    public void afterCommit(Runnable onCommit, Runnable onRollback) {
        store.afterCommit(onCommit, onRollback);
    }

    @Override
    public boolean[] schedule(List<NewFire> fires) {
        refuseSchedule();
        return write("schedule", () -> store.schedule(fires));
    }

    @Override
    public boolean[] schedule(List<NewFire> fires, long fence) {
        refuseSchedule();
        return write("schedule", () -> store.schedule(fires, fence));
    }

    private void refuseSchedule() {
        if (schedulesToFail.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            failed.incrementAndGet();
            throw new InjectedFailure("schedule (refused)");
        }
    }

    @Override
    public List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit) {
        inFlightReads.accept(new InFlightRead(owner, null));
        return read("findOwned", () -> store.findOwned(states, owner, limit));
    }

    @Override
    public Set<String> tasksWithLiveFire() {
        return read("tasksWithLiveFire", store::tasksWithLiveFire);
    }

    @Override
    public List<OwnedInstance> findAll(Collection<String> ids) {
        return read("findAll", () -> store.findAll(ids));
    }

    @Override
    public List<TaskInstance> findScheduled(Instant before, Instant afterTime, String afterId, int limit) {
        return read("findScheduled", () -> store.findScheduled(before, afterTime, afterId, limit));
    }

    /** The wrapped store's, never failing: the store knows it in memory, it reads nothing. */
    @Override
    public int partitionCount() {
        return store.partitionCount();
    }

    @Override
    public List<TaskInstance> findScheduled(
            Instant before, Instant afterTime, String afterId, int limit, int[] partitions) {
        return read("findScheduled", () -> store.findScheduled(before, afterTime, afterId, limit, partitions));
    }

    @Override
    public List<OwnedInstance> findOwned(Set<InstanceState> states, String owner, int limit, int[] partitions) {
        inFlightReads.accept(new InFlightRead(owner, partitions.clone()));
        return read("findOwned", () -> store.findOwned(states, owner, limit, partitions));
    }

    @Override
    public int fillPartitions(int count, int limit) {
        return write("fillPartitions", () -> store.fillPartitions(count, limit));
    }

    @Override
    public Optional<TaskInstance> findByKey(String taskName, String key) {
        return read("findByKey", () -> store.findByKey(taskName, key));
    }

    @Override
    public Optional<byte[]> payload(String instanceId) {
        return read("payload", () -> store.payload(instanceId));
    }

    @Override
    public boolean reschedule(String instanceId, Instant from, Instant to, String node, Instant at) {
        return write("reschedule", () -> store.reschedule(instanceId, from, to, node, at));
    }

    @Override
    public List<TaskInstance> findByStates(Set<InstanceState> states, int limit) {
        return read("findByStates", () -> store.findByStates(states, limit));
    }

    @Override
    public void saveTask(String name, String trigger, Instant at) {
        write("saveTask", () -> store.saveTask(name, trigger, at));
    }

    @Override
    public void saveTasks(Map<String, String> triggers, Instant at) {
        write("saveTasks", () -> store.saveTasks(triggers, at));
    }

    @Override
    public Optional<StoredTask> findTask(String name) {
        return read("findTask", () -> store.findTask(name));
    }

    @Override
    public List<StoredTask> findTasks() {
        return read("findTasks", store::findTasks);
    }

    @Override
    public boolean setPaused(String name, boolean paused, Instant at) {
        return write("setPaused", () -> store.setPaused(name, paused, at));
    }

    @Override
    public Optional<TaskInstance> find(String id) {
        return read("find", () -> store.find(id));
    }

    @Override
    public List<TaskInstance> findByTask(String taskName, int limit) {
        return read("findByTask", () -> store.findByTask(taskName, limit));
    }

    @Override
    public List<TaskInstance> search(InstanceQuery query) {
        return read("search", () -> store.search(query));
    }

    @Override
    public List<AuditEntry> auditTrail(String instanceId) {
        return read("auditTrail", () -> store.auditTrail(instanceId));
    }

    @Override
    public Map<String, Integer> takeovers(Collection<String> instanceIds) {
        return read("takeovers", () -> store.takeovers(instanceIds));
    }

    @Override
    public void saveDeadLetter(DeadLetter deadLetter) {
        write("saveDeadLetter", () -> store.saveDeadLetter(deadLetter));
    }

    @Override
    public boolean deleteDeadLetter(String instanceId) {
        return write("deleteDeadLetter", () -> store.deleteDeadLetter(instanceId));
    }

    @Override
    public List<DeadLetter> deadLetters(int offset, int limit) {
        return read("deadLetters", () -> store.deadLetters(offset, limit));
    }

    @Override
    public int deleteFinished(Instant finishedBefore, Instant deadBefore, int limit) {
        return write("deleteFinished", () -> store.deleteFinished(finishedBefore, deadBefore, limit));
    }

    @Override
    public long deadLetterCount() {
        return read("deadLetterCount", store::deadLetterCount);
    }

    @Override
    public boolean insertDefinition(io.ax.core.store.StoredDefinition definition) {
        return write("insertDefinition", () -> store.insertDefinition(definition));
    }

    @Override
    public boolean updateDefinition(io.ax.core.store.StoredDefinition definition) {
        return write("updateDefinition", () -> store.updateDefinition(definition));
    }

    @Override
    public boolean deleteDefinition(String name, long version, String node, Instant at) {
        return write("deleteDefinition", () -> store.deleteDefinition(name, version, node, at));
    }

    @Override
    public List<io.ax.core.store.StoredDefinition> findDefinitions() {
        return read("findDefinitions", store::findDefinitions);
    }

    @Override
    public List<io.ax.core.store.DefinitionChange> definitionHistory(String name) {
        return read("definitionHistory", () -> store.definitionHistory(name));
    }

    /**
     * The wrapped store's activity rollup, failing while the store is {@link #down}; {@link #failWrites} leaves it
     * alone, so that its flushes never take a failure meant for the writes a test counts.
     */
    @Override
    public Optional<io.ax.core.store.ActivityStore> activity() {
        return store.activity().map(inner -> new io.ax.core.store.ActivityStore() {
            @Override
            public void save(List<io.ax.core.store.ActivityRow> rows) {
                unlessDown("activity.save", () -> {
                    inner.save(rows);
                    return null;
                });
            }

            @Override
            public List<io.ax.core.store.ActivityRow> find(String task, Instant from, Instant to) {
                return unlessDown("activity.find", () -> inner.find(task, from, to));
            }

            @Override
            public List<io.ax.core.store.ActivityTotals> totals(Instant from, Instant to) {
                return unlessDown("activity.totals", () -> inner.totals(from, to));
            }

            @Override
            public int deleteBefore(Instant before, int limit) {
                return unlessDown("activity.deleteBefore", () -> inner.deleteBefore(before, limit));
            }
        });
    }

    /**
     * The wrapped store's task data: a read fails while the store is {@link #down}, a write also as {@link
     * #failWrites} says; a failed write writes nothing.
     */
    @Override
    public Optional<io.ax.core.store.TaskDataStore> taskData() {
        return store.taskData().map(inner -> new io.ax.core.store.TaskDataStore() {
            @Override
            public Optional<TaskData> read(String key) {
                return FailingStore.this.read("taskData.read", () -> inner.read(key));
            }

            @Override
            public boolean write(String key, long expectedVersion, byte[] value, Writer writer) {
                return FailingStore.this.write(
                        "taskData.write", () -> inner.write(key, expectedVersion, value, writer));
            }
        });
    }
}
