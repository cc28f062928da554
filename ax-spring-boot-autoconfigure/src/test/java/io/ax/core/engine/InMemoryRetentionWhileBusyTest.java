package io.ax.core.engine;

import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.test.engine.RetentionWhileBusyContract;

class InMemoryRetentionWhileBusyTest extends RetentionWhileBusyContract {

    @Override
    protected InstanceStore newStore() {
        return new InMemoryInstanceStore();
    }
}
