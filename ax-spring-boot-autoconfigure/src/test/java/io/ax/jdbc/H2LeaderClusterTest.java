package io.ax.jdbc;

import io.ax.core.engine.ownership.Ownership;
import io.ax.test.jdbc.TestDatabase;

/**
 * The cluster contract on H2 under the leader's protocol of earlier versions (one leader assigns every row), which
 * the engine still builds; the other classes run the default, partitioned ownership, on every database.
 */
class H2LeaderClusterTest extends JdbcClusterContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }

    @Override
    Ownership ownership() {
        return Ownership.LEADER;
    }
}
