package io.ax.core.store;

import io.ax.test.store.TaskDataContract;

class InMemoryTaskDataTest extends TaskDataContract {

    private final TaskDataStore taskData =
            new InMemoryInstanceStore().taskData().orElseThrow();

    @Override
    protected TaskDataStore taskData() {
        return taskData;
    }
}
