package io.ax.core.engine;

import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.test.engine.WorkflowContract;

class InMemoryWorkflowTest extends WorkflowContract {

    @Override
    protected InstanceStore newStore() {
        return new InMemoryInstanceStore();
    }
}
