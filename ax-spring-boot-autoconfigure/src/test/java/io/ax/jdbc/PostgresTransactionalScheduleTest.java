package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresTransactionalScheduleTest extends JdbcTransactionalScheduleContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
