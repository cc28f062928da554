package io.ax.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.cluster.ClusterProtocol;
import io.ax.core.cluster.LeaderLease;
import io.ax.core.cluster.NodeInfo;
import io.ax.core.cluster.NodeRegistry;
import io.ax.core.cluster.NodeStatus;
import io.ax.core.cluster.PartitionLeases;
import io.ax.test.cluster.LeaderLeaseContract;
import io.ax.test.cluster.NodeRegistryContract;
import io.ax.test.cluster.PartitionLeasesContract;
import io.ax.test.jdbc.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The lease, node registry and partition contracts on one database, on tables created by AX's own migrations; a second
 * session set to a time zone far from UTC plays a node whose clock is far from the database's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcClusterSpiContract {

    private static final String PREFIX = "axlease_";

    private final TestDatabase db;
    /** The statement that moves a session's time zone 13 or 14 hours ahead of UTC. */
    private final String skewedSessionStatement;

    private SingleConnectionDataSource skewed;

    JdbcClusterSpiContract(TestDatabase db, String skewedSessionStatement) {
        this.db = db;
        this.skewedSessionStatement = skewedSessionStatement;
    }

    @BeforeAll
    void createSchema() {
        db.migrate(PREFIX);
    }

    @AfterAll
    void closeSkewedSession() {
        if (skewed != null) {
            skewed.destroy();
        }
    }

    private SingleConnectionDataSource skewedSession() {
        db.dataSource(); // skips the test, saying why, when the database is down
        if (skewed == null) {
            skewed = new SingleConnectionDataSource(db.url(), db.user(), db.password(), true);
            new JdbcTemplate(skewed).execute(skewedSessionStatement);
        }
        return skewed;
    }

    @Nested
    class Leases extends LeaderLeaseContract {

        @Override
        protected LeaderLease newLease() {
            db.truncate(PREFIX);
            return new JdbcLeaderLease(db.dataSource(), PREFIX);
        }

        @Override
        protected LeaderLease sameStoreSeenFromASkewedNode() {
            return new JdbcLeaderLease(skewedSession(), PREFIX);
        }

        /** After the store went back, the epoch is raised to the highest seen, the lease ended: the next is above. */
        @Test
        void anEpochThatWentBackIsRaisedAndTheLeaseEndsSoTheNextHolderIsAbove() {
            LeaderLease lease = newLease();
            assertThat(lease.acquire("n1", Duration.ofMinutes(5)).orElseThrow().epoch())
                    .isEqualTo(1);

            assertThat(lease.raiseEpoch(7)).isTrue();
            assertThat(lease.raiseEpoch(3)).isFalse();

            assertThat(lease.acquire("n2", Duration.ofMinutes(5)).orElseThrow().epoch())
                    .isEqualTo(8);
        }
    }

    @Nested
    class Registry extends NodeRegistryContract {

        @Override
        protected NodeRegistry newRegistry() {
            db.truncate(PREFIX);
            return new JdbcNodeRegistry(db.dataSource(), PREFIX);
        }

        @Override
        protected NodeRegistry sameStoreSeenFromASkewedNode() {
            return new JdbcNodeRegistry(skewedSession(), PREFIX);
        }

        /** A node of a version from before protocols were recorded writes no protocol: it speaks the first one. */
        @Test
        void aRowWithoutAProtocolIsANodeOfTheFirstProtocol() {
            registry.register(
                    new NodeInfo("old", "inc-1", "host-1", Instant.EPOCH, Set.of("default"), 4, 5),
                    Duration.ofMinutes(5));
            new JdbcTemplate(db.dataSource())
                    .update("UPDATE " + PREFIX + "node SET protocol = NULL WHERE node_id = 'old'");

            assertThat(registry.nodes())
                    .singleElement()
                    .extracting(NodeStatus::protocol)
                    .isEqualTo(ClusterProtocol.LEADER_ASSIGNS);
        }

        /** A store that lost the node's last heartbeats holds an older one than the node read back: it says so. */
        @Test
        void aHeartbeatOverAnOlderOneThanTheNodeReadBackIsRefused() {
            registry.register(new NodeInfo("n1", "inc-1", "host-1", Instant.EPOCH, Set.of("default"), 4), LONG);
            Instant readBack = registry.nodes().get(0).lastHeartbeat();

            assertThat(registry.heartbeat("n1", "inc-1", 4, readBack)).isTrue();
            Instant later = registry.nodes().get(0).lastHeartbeat();
            assertThat(registry.heartbeat("n1", "inc-1", 4, later.plusSeconds(1)))
                    .as("the row holds a heartbeat older than one the node read back")
                    .isFalse();
            assertThat(registry.nodes().get(0).lastHeartbeat()).isEqualTo(later);
        }
    }

    @Nested
    class Partitions extends PartitionLeasesContract {

        @Override
        protected PartitionLeases newLeases() {
            db.truncate(PREFIX);
            return new JdbcPartitionLeases(db.dataSource(), PREFIX);
        }

        @Override
        protected NodeRegistry registry() {
            return new JdbcNodeRegistry(db.dataSource(), PREFIX);
        }

        @Override
        protected PartitionLeases sameStoreSeenFromASkewedNode() {
            return new JdbcPartitionLeases(skewedSession(), PREFIX);
        }

        /**
         * After the store went back, an epoch below the highest a node saw is raised to it and the partition freed, so
         * that its next take grants an epoch never granted before; an epoch at or above it is left alone.
         */
        @Test
        void epochsThatWentBackAreRaisedAboveTheHighestSeenAndNeverLowered() {
            leases.partitions(4);
            registry.register(new NodeInfo("n1", "inc-1", "host-1", Instant.EPOCH, Set.of("default"), 4), LONG);
            assertThat(leases.take(0, "n1", "inc-1", LONG)).isPresent();
            assertThat(leases.take(1, "n1", "inc-1", LONG)).isPresent();

            assertThat(leases.raiseEpochs(java.util.Map.of(0, 5L, 1, 1L))).isEqualTo(1);

            var read = leases.read(LONG);
            assertThat(read.get(0).epoch()).isEqualTo(5);
            assertThat(read.get(0).owner()).isNull();
            assertThat(read.get(1).epoch()).isEqualTo(1);
            assertThat(read.get(1).owner()).isEqualTo("n1");
            assertThat(leases.take(0, "n1", "inc-1", LONG).orElseThrow().epoch())
                    .isEqualTo(6);
        }
    }
}
