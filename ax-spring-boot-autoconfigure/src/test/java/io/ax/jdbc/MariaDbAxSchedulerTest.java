package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbAxSchedulerTest extends JdbcAxSchedulerContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
