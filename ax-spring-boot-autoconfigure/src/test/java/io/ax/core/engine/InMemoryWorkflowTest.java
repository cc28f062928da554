package io.ax.core.engine;

import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.test.engine.WorkflowContract;
import java.util.Optional;

/** Engines sharing one in-memory store share its lease too: a cluster inside one JVM. */
class InMemoryWorkflowTest extends WorkflowContract {

    private InMemoryInstanceStore store;

    @Override
    protected InstanceStore newStore() {
        store = new InMemoryInstanceStore();
        return store;
    }

    @Override
    protected Optional<InstanceStore> sameStoreAgain() {
        return Optional.of(store);
    }
}
