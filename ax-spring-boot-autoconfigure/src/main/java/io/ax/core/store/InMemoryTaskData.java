package io.ax.core.store;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The task data of an in-memory store: this JVM's engines share it, and it is gone with the JVM. Thread-safe. */
final class InMemoryTaskData implements TaskDataStore {

    private final Map<String, TaskData> values = new ConcurrentHashMap<>();

    @Override
    public Optional<TaskData> read(String key) {
        TaskDataStore.checkKey(key);
        return Optional.ofNullable(values.get(key));
    }

    @Override
    public boolean write(String key, long expectedVersion, byte[] value, Writer writer) {
        TaskDataStore.checkWrite(key, expectedVersion, value, writer);
        TaskData next = new TaskData(key, expectedVersion + 1, value, writer);
        if (expectedVersion == 0) {
            return values.putIfAbsent(key, next) == null;
        }
        boolean[] written = new boolean[1];
        // compute runs atomically per key: the compare and the set are one step
        values.computeIfPresent(key, (k, stored) -> {
            if (stored.version() != expectedVersion) {
                return stored;
            }
            written[0] = true;
            return next;
        });
        return written[0];
    }
}
