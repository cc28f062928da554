package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class PostgresTransactionalAttemptTest extends JdbcTransactionalAttemptContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }
}
