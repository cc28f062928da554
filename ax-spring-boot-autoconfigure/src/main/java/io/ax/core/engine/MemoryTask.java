package io.ax.core.engine;

import io.ax.core.AxTask;

/**
 * A pending MEMORY execution: the wheel entry's payload and nothing more, so that a million of them cost the heap
 * about 48 bytes each plus the wheel's slot. Its instance id is derived from its wheel handle ({@link
 * MemoryExecutions}), so no map from ids to tasks is needed; it enters a store only when it falls due.
 */
final class MemoryTask {

    final AxTask task;
    final byte[] payload;
    final String key;
    final long createdMicros;
    /** Guarded by this object's monitor, like {@link #handle}: a reschedule moves it. */
    private long dueMicros;
    /** The wheel handle; set right after scheduling, under this object's monitor, before the id is known. */
    private long handle;

    MemoryTask(AxTask task, long dueMicros, long createdMicros, byte[] payload, String key) {
        this.task = task;
        this.dueMicros = dueMicros;
        this.createdMicros = createdMicros;
        this.payload = payload;
        this.key = key;
    }

    synchronized long handle() {
        return handle;
    }

    synchronized void handle(long handle) {
        this.handle = handle;
    }

    synchronized long dueMicros() {
        return dueMicros;
    }

    synchronized void dueMicros(long dueMicros) {
        this.dueMicros = dueMicros;
    }
}
