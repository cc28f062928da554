package io.ax.jdbc;

import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.NodeRegistry;
import io.ax.test.cluster.LeaderLeaseContract;
import io.ax.test.cluster.NodeRegistryContract;
import io.ax.test.jdbc.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/** The lease and node registry contracts on PostgreSQL, on tables created by AX's own migrations. */
class PostgresClusterSpiTest {

    private static final TestDatabase DB = TestDatabase.POSTGRESQL;
    private static final String PREFIX = "axlease_";
    /** A session 14 hours ahead of UTC: the time zone a node far from the database might run in. */
    private static final String SKEWED_SESSION = "SET TIME ZONE 'Pacific/Kiritimati'";

    private static SingleConnectionDataSource skewed;

    @BeforeAll
    static void createSchema() {
        DB.migrate(PREFIX);
    }

    @AfterAll
    static void closeSkewedSession() {
        if (skewed != null) {
            skewed.destroy();
        }
    }

    private static SingleConnectionDataSource skewedSession() {
        DB.dataSource(); // skips the test, saying why, when the database is down
        if (skewed == null) {
            skewed = new SingleConnectionDataSource(DB.url(), DB.user(), DB.password(), true);
            new JdbcTemplate(skewed).execute(SKEWED_SESSION);
        }
        return skewed;
    }

    @Nested
    class Leases extends LeaderLeaseContract {

        @Override
        protected LeaderLease newLease() {
            DB.truncate(PREFIX);
            return new JdbcLeaderLease(DB.dataSource(), PREFIX);
        }

        @Override
        protected LeaderLease sameStoreSeenFromASkewedNode() {
            return new JdbcLeaderLease(skewedSession(), PREFIX);
        }
    }

    @Nested
    class Registry extends NodeRegistryContract {

        @Override
        protected NodeRegistry newRegistry() {
            DB.truncate(PREFIX);
            return new JdbcNodeRegistry(DB.dataSource(), PREFIX);
        }

        @Override
        protected NodeRegistry sameStoreSeenFromASkewedNode() {
            return new JdbcNodeRegistry(skewedSession(), PREFIX);
        }
    }
}
