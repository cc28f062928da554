package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2ActivityStoreTest extends JdbcActivityStoreContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
