package io.ax.core.engine.scheduling;

import io.ax.core.AuditEntry;
import io.ax.core.AxTask;
import io.ax.core.InstanceDetails;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.engine.threads.Due;
import io.ax.core.engine.threads.MemoryTask;
import io.ax.core.engine.writes.InstanceIds;
import io.ax.core.engine.writes.StoreRouter;
import io.ax.core.store.NewFire;
import io.ax.core.wheel.AxTimer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * MEMORY executions scheduled through {@link io.ax.core.AxScheduler}: each waits in the wheel as a {@link
 * MemoryTask} and nothing else, its id derived from its wheel handle, and enters the in-memory store only when it
 * falls due (or is cancelled). They are lost with the process.
 *
 * <p>Inside a caller's transaction (see {@link io.ax.core.store.InstanceStore#inCallerTransaction}) an execution
 * that is scheduled, cancelled or moved is <i>held</i>: parked in the wheel at its farthest deadline until the
 * transaction ends, so that it never fires on an outcome that may yet roll back. Its id is its wheel handle, so it
 * enters the wheel at once all the same.
 */
public final class MemoryExecutions {

    private static final int ID_LENGTH = 25;
    private static final String REASON = "scheduled through AxScheduler (MEMORY)";

    private record TaskKey(String task, String key) {}

    private final StoreRouter stores;
    private final String nodeId;
    private final AxTimer<Object> wheel;
    /** The wheel's deadline of a time, after a look at the clock for a jump. */
    private final ToLongFunction<Instant> deadlineOf;
    /** Takes an execution that fell due to its dispatch. */
    private final Consumer<Due> becameDue;
    /** Tells this process's MEMORY ids from another's: a stale id from before a restart finds nothing. */
    private final String incarnation =
            String.format("%08x", ThreadLocalRandom.current().nextInt());
    /** Pending executions with a key; guarded by itself. */
    private final Map<TaskKey, MemoryTask> keys = new HashMap<>();
    /**
     * Held executions, each with the number of open transactions holding it; changed under the execution's monitor
     * (as its time and its wheel entry are). Empty but for executions touched inside transactions still open.
     */
    private final Map<MemoryTask, Integer> held = new ConcurrentHashMap<>();

    public MemoryExecutions(
            StoreRouter stores,
            String nodeId,
            AxTimer<Object> wheel,
            ToLongFunction<Instant> deadlineOf,
            Consumer<Due> becameDue) {
        this.stores = stores;
        this.nodeId = nodeId;
        this.wheel = wheel;
        this.deadlineOf = deadlineOf;
        this.becameDue = becameDue;
    }

    /**
     * Puts an execution into the wheel; with a key another execution of the handler holds, returns that one.
     *
     * @param priority the priority its request gave it, or null for its task's
     * @param parked null to let it wait for its time; else it is held (see {@link #hold}) and added here, for the
     *     caller to {@link #release} after a commit or {@link #drop} after a rollback
     */
    String schedule(
            AxTask task,
            Instant due,
            byte[] payload,
            String key,
            String traceParent,
            Integer priority,
            Instant now,
            List<MemoryTask> parked) {
        if (key == null) {
            return enterWheel(task, due, payload, null, traceParent, priority, now, parked);
        }
        TaskKey taskKey = new TaskKey(task.name(), key);
        synchronized (keys) {
            MemoryTask pending = keys.get(taskKey);
            if (pending != null) {
                return idOf(pending.handle());
            }
            // a key is unique per handler whatever the durability: the configured store may hold it too
            Optional<TaskInstance> existing = stores.findByKey(task.name(), key);
            if (existing.isPresent()) {
                return existing.get().id();
            }
            String id = enterWheel(task, due, payload, key, traceParent, priority, now, parked);
            if (wheel.payload(handleOf(id)) instanceof MemoryTask entered) {
                keys.put(taskKey, entered);
            }
            return id;
        }
    }

    private String enterWheel(
            AxTask task,
            Instant due,
            byte[] payload,
            String key,
            String traceParent,
            Integer priority,
            Instant now,
            List<MemoryTask> parked) {
        MemoryTask m = MemoryTask.of(task, micros(due), micros(now), payload, key, traceParent, priority);
        synchronized (m) { // the wheel may fire it at once: its handle must be set before anyone reads it
            m.handle(wheel.schedule(parked == null ? deadlineOf.applyAsLong(due) : farthest(), m));
            if (parked != null) {
                held.put(m, 1);
                parked.add(m);
            }
        }
        return idOf(m.handle());
    }

    /** The wheel's farthest deadline: where a held execution waits, a hundred years away. */
    private long farthest() {
        return deadlineOf.applyAsLong(Instant.MAX);
    }

    /**
     * Holds a waiting execution for a caller's transaction that cancels or moves it: it waits parked until every
     * transaction holding it has {@linkplain #release released} it. False when it fired first.
     */
    boolean hold(MemoryTask m) {
        synchronized (m) {
            long handle = m.handle();
            if (wheel.payload(handle) != m) {
                return false;
            }
            if (held.merge(m, 1, Integer::sum) == 1 && !wheel.reschedule(handle, farthest())) {
                held.remove(m);
                return false;
            }
            return true;
        }
    }

    /** A transaction that held {@code m} ended: once no other holds it, it waits for its (possibly new) time. */
    void release(MemoryTask m) {
        synchronized (m) {
            Integer holders = held.get(m);
            if (holders == null) {
                return; // cancelled or dropped meanwhile
            }
            if (holders > 1) {
                held.put(m, holders - 1);
                return;
            }
            held.remove(m);
            wheel.reschedule(m.handle(), deadlineOf.applyAsLong(instant(m.dueMicros())));
        }
    }

    /** The transaction that scheduled {@code m} rolled back: it leaves the wheel and its key, as if never there. */
    void drop(MemoryTask m) {
        synchronized (m) {
            held.remove(m);
            wheel.cancel(m.handle());
        }
        forgetKey(m);
    }

    /** The time a waiting execution is due at. */
    Instant dueOf(MemoryTask m) {
        return instant(m.dueMicros());
    }

    /** On the dispatch thread: an execution fell due; it enters the in-memory store and is dispatched. */
    void fire(MemoryTask m) {
        long handle;
        long dueMicros;
        synchronized (m) {
            handle = m.handle();
            dueMicros = m.dueMicros();
        }
        forgetKey(m);
        TaskInstance instance = remember(m, idOf(handle), dueMicros);
        becameDue.accept(new Due(m.task, instance));
    }

    /** The execution behind {@code id} while it waits in this process's wheel, or null. */
    MemoryTask pending(String id) {
        long handle = handleOf(id);
        return handle != -1 && wheel.payload(handle) instanceof MemoryTask m ? m : null;
    }

    /**
     * Takes a waiting execution out of the wheel and keeps it, CANCELLED, in the in-memory store so that {@code
     * find} tells what happened; false when it fired first (then the store's state machine decides).
     */
    boolean cancel(String id, MemoryTask m) {
        synchronized (m) {
            if (!wheel.cancel(handleOf(id))) {
                return false;
            }
            held.remove(m);
        }
        forgetKey(m);
        remember(m, id, m.dueMicros());
        return true;
    }

    /** Moves a waiting execution to another time (a held one keeps waiting parked); false when it fired first. */
    boolean reschedule(String id, MemoryTask m, Instant due) {
        synchronized (m) {
            long previous = m.dueMicros();
            m.dueMicros(micros(due));
            if (held.containsKey(m) && wheel.payload(handleOf(id)) == m) {
                return true;
            }
            if (wheel.reschedule(handleOf(id), deadlineOf.applyAsLong(due))) {
                return true;
            }
            m.dueMicros(previous); // it fired meanwhile, with its old time
            return false;
        }
    }

    /** What {@code find} shows of a waiting execution: its creation and scheduling, as the store would. */
    InstanceDetails details(String id, MemoryTask m) {
        TaskInstance instance = instance(m, id, m.dueMicros());
        Instant created = instance.updatedAt();
        String node = nodeId;
        return new InstanceDetails(
                instance,
                List.of(
                        new AuditEntry(id, null, InstanceState.CREATED, node, 0, created, REASON),
                        new AuditEntry(
                                id,
                                InstanceState.CREATED,
                                InstanceState.SCHEDULED,
                                node,
                                0,
                                created,
                                "due at " + instance.scheduledTime())));
    }

    private TaskInstance remember(MemoryTask m, String id, long dueMicros) {
        TaskInstance instance = instance(m, id, dueMicros);
        stores.memory().schedule(List.of(new NewFire(instance, REASON, m.payload)));
        return instance;
    }

    private TaskInstance instance(MemoryTask m, String id, long dueMicros) {
        return new TaskInstance(
                id,
                m.task.name(),
                instant(dueMicros),
                InstanceState.SCHEDULED,
                0,
                nodeId,
                instant(m.createdMicros),
                InstanceOrigin.DELAYED,
                m.key,
                m.traceParent(),
                m.priority());
    }

    private void forgetKey(MemoryTask m) {
        if (m.key != null) {
            synchronized (keys) {
                keys.remove(new TaskKey(m.task.name(), m.key), m);
            }
        }
    }

    /** {@code m}, this process's incarnation and the wheel handle, in hex: 25 characters. */
    private String idOf(long handle) {
        return InstanceIds.MEMORY_PREFIX + incarnation + String.format("%016x", handle);
    }

    /** The wheel handle in a MEMORY id of this process, or -1 when the id is not one. */
    private long handleOf(String id) {
        if (id == null
                || id.length() != ID_LENGTH
                || !InstanceIds.isMemory(id)
                || !id.regionMatches(1, incarnation, 0, incarnation.length())) {
            return -1;
        }
        try {
            return Long.parseUnsignedLong(id.substring(1 + incarnation.length()), 16);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static long micros(Instant t) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, t);
    }

    private static Instant instant(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }
}
