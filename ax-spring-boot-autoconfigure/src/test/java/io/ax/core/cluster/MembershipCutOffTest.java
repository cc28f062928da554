package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.test.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When a node counts itself cut off from the cluster store, driven round by round on a fake clock: a whole process
 * that stood still (SIGSTOP, a long pause) is seen as cut off by the first of its threads to look, whichever it is,
 * and the break is counted even when the next heartbeat goes through before the watch ever ran.
 */
class MembershipCutOffTest {

    private static final ClusterSettings SETTINGS = new ClusterSettings(
            Duration.ofMillis(500), Duration.ofSeconds(3), Duration.ofMillis(1000), Duration.ofMillis(500), 32);
    /** Longer than the lease less its safety margin: the others may have taken the node for dead. */
    private static final Duration FROZEN = SETTINGS.lease();

    private final FakeClock clock = new FakeClock(Instant.parse("2026-12-08T00:00:00Z"), 1_000_000_000L);
    private final LocalNodeRegistry registry = new LocalNodeRegistry(clock);
    private final LocalLeaderLease lease = new LocalLeaderLease(clock);
    private final List<Duration> told = new ArrayList<>();
    private final NodeInfo self = new NodeInfo("n1", "n1-inc", "localhost", clock.instant(), Set.of("default"), 4);
    private Membership node;

    @AfterEach
    void close() {
        if (node != null) {
            node.close();
        }
    }

    /** Node n1, registered and through its first round, driven only by the test's calls. */
    private Membership follower() {
        lease.acquire("n0", Duration.ofDays(1)); // another node leads throughout
        return started();
    }

    private Membership started() {
        node = new Membership(registry, lease, clock, self, SETTINGS, new Membership.Listener() {
            @Override
            public void leading(long epoch) {}

            @Override
            public void following() {}

            @Override
            public void cutOff(Duration unreachedFor) {
                told.add(unreachedFor);
            }
        });
        registry.register(self, SETTINGS.lease());
        node.round();
        return node;
    }

    @Test
    void aNodeThatStoodStillIsCutOffForItsWorkersBeforeItsWatchRuns() {
        Membership n1 = follower();
        assertThat(n1.isCutOff()).isFalse();

        clock.advance(FROZEN);

        assertThat(n1.isCutOff()).as("asked by a worker that resumed first").isTrue();
    }

    @Test
    void aBreakSeenOnlyWhenTheNextHeartbeatGoesThroughIsCountedAndTold() {
        Membership n1 = follower();

        clock.advance(FROZEN);
        n1.round(); // the round thread resumed first, and its heartbeat went through

        assertThat(n1.cutOffs())
                .as("work claimed before the freeze may run elsewhere")
                .isEqualTo(1);
        assertThat(told).as("its running work stops").containsExactly(FROZEN);
        assertThat(n1.isCutOff()).as("in contact again").isFalse();
        n1.watch();
        assertThat(n1.cutOffs()).isEqualTo(1);
        assertThat(told).hasSize(1);
    }

    @Test
    void aBreakTheWatchSawIsCountedOnceWhenTheHeartbeatGoesThroughAgain() {
        Membership n1 = follower();

        clock.advance(FROZEN);
        n1.watch();
        n1.round();

        assertThat(n1.cutOffs()).isEqualTo(1);
        assertThat(told).hasSize(1);
        assertThat(n1.isCutOff()).isFalse();
    }

    @Test
    void heartbeatsWithinTheAllowanceCountNoBreak() {
        Membership n1 = follower();

        for (int i = 0; i < 10; i++) {
            clock.advance(SETTINGS.heartbeat().multipliedBy(3));
            n1.watch();
            n1.round();
            assertThat(n1.isCutOff()).isFalse();
        }

        assertThat(n1.cutOffs()).isZero();
        assertThat(told).isEmpty();
    }

    @Test
    void aLeaderThatStoodStillPastItsLeaseIsCutOffToo() {
        Membership n1 = started();
        assertThat(n1.epochIfLeader()).as("alone, it leads").isPositive();

        clock.advance(FROZEN);

        assertThat(n1.isCutOff()).isTrue();
        n1.round();
        assertThat(n1.cutOffs()).isEqualTo(1);
    }
}
