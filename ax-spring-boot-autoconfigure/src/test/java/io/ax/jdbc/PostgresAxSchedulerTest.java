package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresAxSchedulerTest extends JdbcAxSchedulerContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
