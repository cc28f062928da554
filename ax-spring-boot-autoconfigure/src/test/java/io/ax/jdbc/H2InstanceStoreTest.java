package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2InstanceStoreTest extends JdbcInstanceStoreContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
