package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbTransactionalAttemptTest extends JdbcTransactionalAttemptContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
