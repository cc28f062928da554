package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresRuntimeTaskTest extends JdbcRuntimeTaskContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
