package io.ax.jdbc;

import io.ax.test.jdbc.TestDatabase;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The cluster contract on H2, run on demand ({@code -Dax.test.h2-cluster=true}): clusters run on PostgreSQL and
 * MariaDB, where the contract runs in every build; H2's own cluster statements are checked by {@link
 * H2ClusterSpiTest} in every build, and a single node on H2 by the H2 engine suites. The contract takes a minute per
 * database, which the CI suite's time cannot spare.
 */
@EnabledIfSystemProperty(named = "ax.test.h2-cluster", matches = "true")
class H2ClusterTest extends JdbcClusterContract {

    @Override
    TestDatabase database() {
        return TestDatabase.H2;
    }
}
