package io.ax.core.engine;

import io.ax.core.AuditEntry;
import io.ax.core.AxTask;
import io.ax.core.InstanceDetails;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.store.NewFire;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * MEMORY executions scheduled through {@link io.ax.core.AxScheduler}: each waits in the wheel as a {@link
 * MemoryTask} and nothing else, its id derived from its wheel handle, and enters the in-memory store only when it
 * falls due (or is cancelled). They are lost with the process.
 */
final class MemoryExecutions {

    private static final int ID_LENGTH = 25;
    private static final String REASON = "scheduled through AxScheduler (MEMORY)";

    private record TaskKey(String task, String key) {}

    private final AxEngine engine;
    /** Tells this process's MEMORY ids from another's: a stale id from before a restart finds nothing. */
    private final String incarnation =
            String.format("%08x", ThreadLocalRandom.current().nextInt());
    /** Pending executions with a key; guarded by itself. */
    private final Map<TaskKey, MemoryTask> keys = new HashMap<>();

    MemoryExecutions(AxEngine engine) {
        this.engine = engine;
    }

    /** Puts an execution into the wheel; with a key another execution of the handler holds, returns that one. */
    String schedule(AxTask task, Instant due, byte[] payload, String key, String traceParent, Instant now) {
        if (key == null) {
            return enterWheel(task, due, payload, null, traceParent, now);
        }
        TaskKey taskKey = new TaskKey(task.name(), key);
        synchronized (keys) {
            MemoryTask pending = keys.get(taskKey);
            if (pending != null) {
                return idOf(pending.handle());
            }
            // a key is unique per handler whatever the durability: the configured store may hold it too
            Optional<TaskInstance> existing = engine.stores().findByKey(task.name(), key);
            if (existing.isPresent()) {
                return existing.get().id();
            }
            String id = enterWheel(task, due, payload, key, traceParent, now);
            if (engine.wheelPayload(handleOf(id)) instanceof MemoryTask entered) {
                keys.put(taskKey, entered);
            }
            return id;
        }
    }

    private String enterWheel(AxTask task, Instant due, byte[] payload, String key, String traceParent, Instant now) {
        MemoryTask m = MemoryTask.of(task, micros(due), micros(now), payload, key, traceParent);
        synchronized (m) { // the wheel may fire it at once: its handle must be set before anyone reads it
            m.handle(engine.wheelSchedule(engine.deadlineOf(due), m));
        }
        return idOf(m.handle());
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
        engine.fires().becameDue(new Due(m.task, instance));
    }

    /** The execution behind {@code id} while it waits in this process's wheel, or null. */
    MemoryTask pending(String id) {
        long handle = handleOf(id);
        return handle != -1 && engine.wheelPayload(handle) instanceof MemoryTask m ? m : null;
    }

    /**
     * Takes a waiting execution out of the wheel and keeps it, CANCELLED, in the in-memory store so that {@code
     * find} tells what happened; false when it fired first (then the store's state machine decides).
     */
    boolean cancel(String id, MemoryTask m) {
        if (!engine.wheelCancel(handleOf(id))) {
            return false;
        }
        forgetKey(m);
        remember(m, id, m.dueMicros());
        return true;
    }

    /** Moves a waiting execution to another time; false when it fired first. */
    boolean reschedule(String id, MemoryTask m, Instant due) {
        synchronized (m) {
            long previous = m.dueMicros();
            m.dueMicros(micros(due));
            if (engine.wheelReschedule(handleOf(id), engine.deadlineOf(due))) {
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
        String node = engine.nodeId();
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
        engine.stores().memory().schedule(List.of(new NewFire(instance, REASON, m.payload)));
        return instance;
    }

    private TaskInstance instance(MemoryTask m, String id, long dueMicros) {
        return new TaskInstance(
                id,
                m.task.name(),
                instant(dueMicros),
                InstanceState.SCHEDULED,
                0,
                engine.nodeId(),
                instant(m.createdMicros),
                InstanceOrigin.DELAYED,
                m.key,
                m.traceParent());
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
