package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresClusterTest extends JdbcClusterContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
