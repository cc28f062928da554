package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresIdempotencyTest extends JdbcIdempotencyContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
