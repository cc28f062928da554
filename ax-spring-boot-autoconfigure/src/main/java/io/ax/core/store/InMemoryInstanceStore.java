package io.ax.core.store;

import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.DuplicateInstanceException;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps everything in this JVM: fast, and lost when the process ends. To bound memory it forgets the oldest
 * finished instances (with their audit rows) beyond a retention limit; unfinished instances are never forgotten.
 * Thread-safe.
 */
public final class InMemoryInstanceStore implements InstanceStore {

    /** One instance with its audit rows; mutated only inside {@link ConcurrentHashMap#compute} on its key. */
    private record Row(TaskInstance instance, List<AuditEntry> audit) {}

    private final ConcurrentHashMap<String, Row> rows = new ConcurrentHashMap<>();
    /** (task, scheduled time) -> instance id: the uniqueness constraint. */
    private final ConcurrentHashMap<TaskTime, String> byTaskTime = new ConcurrentHashMap<>();

    private final ConcurrentHashMap<String, StoredTask> tasks = new ConcurrentHashMap<>();

    private final int maxFinished;
    /** Guards {@link #finished} and {@link #deadLetters}: both are small, append-mostly structures. */
    private final Object retentionLock = new Object();

    private final Deque<String> finished = new ArrayDeque<>();
    private final Deque<DeadLetter> deadLetters = new ArrayDeque<>();

    private record TaskTime(String task, Instant time) {}

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

    @Override
    public void create(TaskInstance instance, String reason) {
        Objects.requireNonNull(instance, "instance");
        if (instance.state() != InstanceState.CREATED) {
            throw new IllegalArgumentException(
                    "a new instance must be CREATED, " + instance.id() + " is " + instance.state());
        }
        TaskTime key = new TaskTime(instance.taskName(), instance.scheduledTime());
        if (byTaskTime.putIfAbsent(key, instance.id()) != null) {
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
        if (rows.putIfAbsent(instance.id(), new Row(instance, audit)) != null) {
            byTaskTime.remove(key, instance.id());
            throw new IllegalArgumentException("instance id " + instance.id() + " is already used");
        }
    }

    @Override
    public boolean[] schedule(List<NewFire> fires) {
        boolean[] written = new boolean[fires.size()];
        for (int i = 0; i < written.length; i++) {
            NewFire fire = fires.get(i);
            TaskInstance scheduled = fire.instance();
            TaskInstance created = scheduled.with(InstanceState.CREATED, 0, scheduled.node(), scheduled.updatedAt());
            try {
                create(created, fire.reason());
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
        boolean[] applied = new boolean[1];
        rows.computeIfPresent(t.instanceId(), (id, row) -> {
            if (row.instance().state() != t.from()) {
                return row;
            }
            row.audit().add(new AuditEntry(id, t.from(), t.to(), t.node(), t.attempt(), t.at(), t.reason()));
            applied[0] = true;
            return new Row(row.instance().with(t.to(), t.attempt(), t.node(), t.at()), row.audit());
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
            if (removed[0] != null) {
                TaskInstance gone = removed[0].instance();
                byTaskTime.remove(new TaskTime(gone.taskName(), gone.scheduledTime()), forget);
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
    public long deadLetterCount() {
        synchronized (retentionLock) {
            return deadLetters.size();
        }
    }

    /** How many instances are remembered (unfinished plus retained finished ones). */
    public int size() {
        return rows.size();
    }

    /** A snapshot of all remembered instances; for tests and diagnostics. */
    public List<TaskInstance> all() {
        return rows.values().stream().map(Row::instance).toList();
    }
}
