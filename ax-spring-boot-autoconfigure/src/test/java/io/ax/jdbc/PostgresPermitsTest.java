package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresPermitsTest extends JdbcPermitsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
