package io.ax.core.engine;

import io.ax.core.engine.ownership.Ownership;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.InstanceStore;
import io.ax.test.engine.AxSchedulerContract;

/**
 * The scheduler contract on one node in memory under the leader's protocol of earlier versions, which the engine still
 * builds; the other classes run the default, partitioned ownership.
 */
class LeaderInMemoryAxSchedulerTest extends AxSchedulerContract {

    @Override
    protected InstanceStore newStore() {
        return new InMemoryInstanceStore();
    }

    @Override
    protected Ownership ownership() {
        return Ownership.LEADER;
    }
}
