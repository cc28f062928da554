package io.ax.core.store;

import io.ax.test.store.ActivityStoreContract;

class InMemoryActivityStoreTest extends ActivityStoreContract {

    private final InMemoryActivityStore activity = new InMemoryActivityStore();

    @Override
    protected ActivityStore activity() {
        return activity;
    }
}
