package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbTransactionalScheduleTest extends JdbcTransactionalScheduleContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
