package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbRuntimeTaskTest extends JdbcRuntimeTaskContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
