package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class MariaDbClusterSpiTest extends JdbcClusterSpiContract {

    MariaDbClusterSpiTest() {
        super(TestDatabase.MARIADB, "SET time_zone = '+13:00'");
    }
}
