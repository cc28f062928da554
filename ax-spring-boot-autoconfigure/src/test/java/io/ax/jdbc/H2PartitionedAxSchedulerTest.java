package io.ax.jdbc;

import io.ax.core.engine.ownership.Ownership;
import io.ax.test.jdbc.TestDatabase;

/** The scheduler contract on H2, the one node owning every partition and deciding each row by its partition. */
class H2PartitionedAxSchedulerTest extends JdbcAxSchedulerContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }

    @Override
    protected Ownership ownership() {
        return Ownership.PARTITIONED;
    }
}
