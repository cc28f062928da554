package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresWorkflowTest extends JdbcWorkflowContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
