package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoreHistoryTest {

    private final List<String> wentBack = new ArrayList<>();
    private final List<String> failedOver = new ArrayList<>();
    private final StoreHistory history = new StoreHistory(new StoreHistory.Listener() {
        @Override
        public void wentBack(List<String> findings) {
            wentBack.addAll(findings);
        }

        @Override
        public void failedOver(String what) {
            failedOver.add(what);
        }
    });

    private static final Instant T = Instant.parse("2026-12-07T01:00:00Z");

    @Test
    void anOwnHeartbeatOlderThanTheOneReadBackIsALossAndBecomesTheNewBase() {
        history.ownHeartbeatRead(T.plusSeconds(2));
        history.ownHeartbeatRead(T.plusSeconds(1)); // the database's clock stepped back: what the row holds is the base

        assertThat(history.ownHeartbeatFound(T.plusSeconds(1))).isFalse();
        assertThat(history.ownHeartbeatFound(T.minusSeconds(3))).isTrue();

        assertThat(wentBack)
                .singleElement()
                .asString()
                .contains("heartbeat went back")
                .contains("4000 ms");
        assertThat(history.ownHeartbeat()).isEqualTo(T.minusSeconds(3));
        assertThat(history.ownHeartbeatFound(T.minusSeconds(3))).isFalse();
    }

    @Test
    void nothingIsKnownBeforeTheFirstHeartbeatIsReadBack() {
        assertThat(history.ownHeartbeatFound(T)).isFalse();
        assertThat(wentBack).isEmpty();
    }

    @Test
    void epochsThatGrowAreNoNewsAndEpochsThatGoBackAreALossThatStopsTheRound() {
        assertThat(history.partitions(List.of(lease(0, 3), lease(1, 5)))).isTrue();
        assertThat(history.partitions(List.of(lease(0, 4), lease(1, 5)))).isTrue();
        history.leaderEpoch(7);
        history.leaderEpoch(8);
        assertThat(wentBack).isEmpty();

        assertThat(history.partitions(List.of(lease(0, 4), lease(1, 2)))).isFalse();
        history.leaderEpoch(6);

        assertThat(wentBack)
                .containsExactly("partition epochs went back: 1 (5 -> 2)", "the leader epoch went back from 8 to 6");
        assertThat(history.partitionEpochsSeen()).containsEntry(0, 4L).containsEntry(1, 5L);
        assertThat(history.leaderEpochSeen()).isEqualTo(8);
    }

    @Test
    void aPromotionIsAFailoverNotALoss() {
        history.identity(new StoreIdentity.Reading("7716", 1));
        history.identity(new StoreIdentity.Reading("7716", 1));
        history.identity(new StoreIdentity.Reading("7716", 2));

        assertThat(wentBack).isEmpty();
        assertThat(failedOver).singleElement().asString().contains("from 1 to 2");
    }

    @Test
    void anEarlierTimelineIsAnOldPrimaryAndAnotherSystemIsAnotherStore() {
        history.identity(new StoreIdentity.Reading("7716", 2));
        history.identity(new StoreIdentity.Reading("7716", 1));
        history.identity(new StoreIdentity.Reading("9999", 1));

        assertThat(wentBack).hasSize(2);
        assertThat(wentBack.get(0)).contains("timeline went back from 2 to 1");
        assertThat(wentBack.get(1)).contains("another server: system 9999, was 7716");
        assertThat(failedOver).isEmpty();
    }

    @Test
    void anotherServerOfTheSameStoreIsAFailoverNotALoss() {
        history.identity(new StoreIdentity.Reading(null, 0, "uuid-a"));
        history.identity(new StoreIdentity.Reading(null, 0, "uuid-b"));

        assertThat(wentBack).isEmpty();
        assertThat(failedOver).singleElement().asString().contains("another server: uuid-b, was uuid-a");
    }

    @Test
    void aStoreThatTellsNothingOfItselfIsNeverJudgedByIt() {
        history.identity(StoreIdentity.Reading.UNKNOWN);
        history.identity(new StoreIdentity.Reading("7716", 1));
        history.identity(StoreIdentity.Reading.UNKNOWN); // a standby read during a failover, say
        history.identity(new StoreIdentity.Reading("7716", 1));

        assertThat(wentBack).isEmpty();
        assertThat(failedOver).isEmpty();
    }

    private static PartitionLease lease(int partition, long epoch) {
        return new PartitionLease(partition, "n1", "i1", epoch, true, Duration.ZERO);
    }
}
