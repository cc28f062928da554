package io.ax.jdbc;

import io.ax.core.engine.ownership.Ownership;
import io.ax.test.jdbc.TestDatabase;

/** The scheduler contract on Postgres, the one node owning every partition and deciding each row by its partition. */
class PostgresPartitionedAxSchedulerTest extends JdbcAxSchedulerContract {

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRESQL;
    }

    @Override
    protected Ownership ownership() {
        return Ownership.PARTITIONED;
    }
}
