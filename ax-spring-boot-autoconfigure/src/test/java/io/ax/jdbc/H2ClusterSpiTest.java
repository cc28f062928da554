package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2ClusterSpiTest extends JdbcClusterSpiContract {

    H2ClusterSpiTest() {
        super(TestDatabase.H2, "SET TIME ZONE '+13:00'");
    }
}
