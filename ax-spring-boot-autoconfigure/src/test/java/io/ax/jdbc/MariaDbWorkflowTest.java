package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbWorkflowTest extends JdbcWorkflowContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
