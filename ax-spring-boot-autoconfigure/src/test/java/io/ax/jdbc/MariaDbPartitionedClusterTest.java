package io.ax.jdbc;

import io.ax.core.engine.ownership.Ownership;
import io.ax.test.jdbc.TestDatabase;

/** The cluster contract on MariaDb with each node deciding the rows of the partitions it owns. */
class MariaDbPartitionedClusterTest extends JdbcClusterContract {

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }

    @Override
    Ownership ownership() {
        return Ownership.PARTITIONED;
    }
}
