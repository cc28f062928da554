package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbTaskDataTest extends JdbcTaskDataContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
