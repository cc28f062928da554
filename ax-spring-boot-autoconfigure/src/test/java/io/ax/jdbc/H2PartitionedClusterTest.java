package io.ax.jdbc;

import io.ax.core.engine.ownership.Ownership;
import io.ax.test.jdbc.TestDatabase;

/** The cluster contract on H2 with each node deciding the rows of the partitions it owns. */
class H2PartitionedClusterTest extends JdbcClusterContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }

    @Override
    Ownership ownership() {
        return Ownership.PARTITIONED;
    }
}
