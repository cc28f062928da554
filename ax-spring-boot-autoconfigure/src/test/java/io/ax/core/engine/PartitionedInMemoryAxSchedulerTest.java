package io.ax.core.engine;

import io.ax.core.engine.ownership.Ownership;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.test.engine.AxSchedulerContract;

/** The scheduler contract on one node that owns every partition and decides each row by its partition's epoch. */
class PartitionedInMemoryAxSchedulerTest extends AxSchedulerContract {

    @Override
    protected InstanceStore newStore() {
        return new InMemoryInstanceStore();
    }

    @Override
    protected Ownership ownership() {
        return Ownership.PARTITIONED;
    }
}
