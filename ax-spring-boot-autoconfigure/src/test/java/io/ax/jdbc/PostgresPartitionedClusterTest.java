package io.ax.jdbc;

import io.ax.core.engine.ownership.Ownership;
import io.ax.test.jdbc.TestDatabase;

/** The cluster contract on Postgres with each node deciding the rows of the partitions it owns. */
class PostgresPartitionedClusterTest extends JdbcClusterContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }

    @Override
    Ownership ownership() {
        return Ownership.PARTITIONED;
    }
}
