package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresActivityStoreTest extends JdbcActivityStoreContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
