package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.test.FakeClock;
import io.ax.test.cluster.LeaderLeaseContract;
import io.ax.test.cluster.NodeRegistryContract;
import io.ax.test.cluster.PartitionLeasesContract;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The lease, node registry and partition contracts in memory, on a fake clock that moves only when a test moves it. */
class LocalClusterSpiTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Nested
    class Leases extends LeaderLeaseContract {

        private final FakeClock clock = new FakeClock(T0);

        @Override
        protected LeaderLease newLease() {
            return new LocalLeaderLease(clock);
        }

        @Override
        protected void advanceStoreClock(Duration duration) {
            clock.advance(duration);
        }

        /** The caller reads the store's own clock: the fake clock is the only time there is. */
        @Override
        protected long callerNanos() {
            return ChronoUnit.NANOS.between(T0, clock.instant());
        }

        @Test
        void aLeaseIsHeldUntilTheInstantItExpiresAndNotAtIt() {
            Lease a = lease.acquire("a", Duration.ofSeconds(10)).orElseThrow();
            assertThat(a.remaining()).isEqualTo(Duration.ofSeconds(10));
            clock.advance(Duration.ofSeconds(10).minusNanos(1));
            assertThat(lease.current().remaining()).isEqualTo(Duration.ofNanos(1));
            assertThat(lease.acquire("b", Duration.ofSeconds(10))).isEmpty();
            clock.advance(Duration.ofNanos(1));
            assertThat(lease.current().held()).isFalse();
            assertThat(lease.acquire("b", Duration.ofSeconds(10)))
                    .hasValueSatisfying(b -> assertThat(b.epoch()).isEqualTo(a.epoch() + 1));
        }

        @Test
        void aLeaseExpiresAtTheStoreTimeItWasWrittenFor() {
            lease.acquire("a", Duration.ofSeconds(10)).orElseThrow();
            clock.advance(Duration.ofSeconds(4));
            assertThat(lease.current().expiresAt()).isEqualTo(T0.plusSeconds(10));
            assertThat(lease.current().remaining()).isEqualTo(Duration.ofSeconds(6));
        }
    }

    @Nested
    class Registry extends NodeRegistryContract {

        private final FakeClock clock = new FakeClock(T0);

        @Override
        protected NodeRegistry newRegistry() {
            return new LocalNodeRegistry(clock);
        }

        @Override
        protected void advanceStoreClock(Duration duration) {
            clock.advance(duration);
        }

        @Test
        void heartbeatAgeIsExactlyHowFarTheStoreClockMoved() {
            registry.register(new NodeInfo("n1", "inc-1", "host-1", T0, Set.of(), 1), Duration.ofSeconds(30));
            clock.advance(Duration.ofSeconds(7));
            assertThat(status("n1").heartbeatAge()).isEqualTo(Duration.ofSeconds(7));
            assertThat(status("n1").lastHeartbeat()).isEqualTo(T0);
        }

        @Test
        void aHeartbeatExactlyAsOldAsStaleAfterIsStale() {
            registry.register(new NodeInfo("n1", "inc-1", "host-1", T0, Set.of(), 1), Duration.ofSeconds(30));
            clock.advance(Duration.ofSeconds(30));
            registry.register(new NodeInfo("n1", "inc-2", "host-2", T0, Set.of(), 1), Duration.ofSeconds(30));
            assertThat(status("n1").incarnation()).isEqualTo("inc-2");
        }
    }

    @Nested
    class Partitions extends PartitionLeasesContract {

        private final FakeClock clock = new FakeClock(T0);
        private LocalNodeRegistry registry;

        @Override
        protected PartitionLeases newLeases() {
            registry = new LocalNodeRegistry(clock);
            return new LocalPartitionLeases(clock, registry);
        }

        @Override
        protected NodeRegistry registry() {
            return registry;
        }

        @Override
        protected void advanceStoreClock(Duration duration) {
            clock.advance(duration);
        }
    }
}
