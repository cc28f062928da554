package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2TransactionalAttemptTest extends JdbcTransactionalAttemptContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
