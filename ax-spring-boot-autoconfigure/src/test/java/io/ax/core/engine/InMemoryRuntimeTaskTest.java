package io.ax.core.engine;

import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.test.engine.RuntimeTaskContract;

/** The in-memory store outlives the engines of one test: a restart is a new engine on the same store. */
class InMemoryRuntimeTaskTest extends RuntimeTaskContract {

    private InMemoryInstanceStore store;

    @Override
    protected InstanceStore newStore() {
        store = new InMemoryInstanceStore();
        return store;
    }

    @Override
    protected InstanceStore sameStoreAgain() {
        return store;
    }
}
