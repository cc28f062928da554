package io.ax.core.store;

import io.ax.test.store.PermitsContract;

class InMemoryPermitsTest extends PermitsContract<InMemoryInstanceStore> {

    @Override
    protected InMemoryInstanceStore newStore() {
        return new InMemoryInstanceStore();
    }
}
