package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;

class H2ClusterTest extends JdbcClusterContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
