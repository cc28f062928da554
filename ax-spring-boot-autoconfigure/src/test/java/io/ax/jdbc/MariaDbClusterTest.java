package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbClusterTest extends JdbcClusterContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
