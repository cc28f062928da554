package io.ax.core.engine.threads;

import io.ax.core.AxTask;

/**
 * A pending MEMORY execution: the wheel entry's payload and nothing more, so that a million of them cost the heap
 * about 48 bytes each plus the wheel's slot. Its instance id is derived from its wheel handle ({@code
 * MemoryExecutions}), so no map from ids to tasks is needed; it enters a store only when it falls due. One scheduled
 * inside a trace or with a priority of its own is a {@link Detailed}, so that the others do not pay for the fields.
 */
public sealed class MemoryTask permits MemoryTask.Detailed {

    public final AxTask task;
    public final byte[] payload;
    public final String key;
    public final long createdMicros;
    /** Guarded by this object's monitor, like {@link #handle}: a reschedule moves it. */
    private long dueMicros;
    /** The wheel handle; set right after scheduling, under this object's monitor, before the id is known. */
    private long handle;

    private MemoryTask(AxTask task, long dueMicros, long createdMicros, byte[] payload, String key) {
        this.task = task;
        this.dueMicros = dueMicros;
        this.createdMicros = createdMicros;
        this.payload = payload;
        this.key = key;
    }

    /** The trace its attempts continue, or null. */
    public String traceParent() {
        return null;
    }

    /** The priority its request gave it, or null for its task's. */
    public Integer priority() {
        return null;
    }

    /**
     * Creates a pending execution.
     *
     * @param traceParent the trace the caller was in, or null
     * @param priority the priority its request gave it, or null
     */
    public static MemoryTask of(
            AxTask task,
            long dueMicros,
            long createdMicros,
            byte[] payload,
            String key,
            String traceParent,
            Integer priority) {
        return traceParent == null && priority == null
                ? new MemoryTask(task, dueMicros, createdMicros, payload, key)
                : new Detailed(task, dueMicros, createdMicros, payload, key, traceParent, priority);
    }

    public synchronized long handle() {
        return handle;
    }

    public synchronized void handle(long handle) {
        this.handle = handle;
    }

    public synchronized long dueMicros() {
        return dueMicros;
    }

    public synchronized void dueMicros(long dueMicros) {
        this.dueMicros = dueMicros;
    }

    /** A pending execution scheduled inside a trace, or with a priority of its own. */
    static final class Detailed extends MemoryTask {

        private final String traceParent;
        private final Integer priority;

        private Detailed(
                AxTask task,
                long dueMicros,
                long createdMicros,
                byte[] payload,
                String key,
                String traceParent,
                Integer priority) {
            super(task, dueMicros, createdMicros, payload, key);
            this.traceParent = traceParent;
            this.priority = priority;
        }

        @Override
        public String traceParent() {
            return traceParent;
        }

        @Override
        public Integer priority() {
            return priority;
        }
    }
}
