package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresInstanceStoreTest extends JdbcInstanceStoreContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
