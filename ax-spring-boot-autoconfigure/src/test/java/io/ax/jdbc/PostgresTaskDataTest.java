package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresTaskDataTest extends JdbcTaskDataContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
