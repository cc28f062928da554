package io.ax.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {

    private static Duration ms(long n) {
        return Duration.ofMillis(n);
    }

    @Test
    void theDefaultsWorkTogether() {
        ClusterSettings d = ClusterSettings.defaults();
        assertThat(d.heartbeat()).isEqualTo(Duration.ofSeconds(3));
        assertThat(d.lease()).isEqualTo(Duration.ofSeconds(10));
        assertThat(d.ackTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(d.pollInterval()).isEqualTo(ms(500));
        assertThat(d.virtualNodes()).isEqualTo(32);
        assertThat(d.safetyMargin()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aLeaseNotAboveTwiceTheHeartbeatNamesBothSettings() {
        assertThatThrownBy(() -> new ClusterSettings(ms(3_000), ms(6_000), ms(1_000), ms(500), 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ax.cluster.lease")
                .hasMessageContaining("ax.cluster.heartbeat");
    }

    @Test
    void anAckTimeoutNotBelowTheLeaseNamesBothSettings() {
        assertThatThrownBy(() -> new ClusterSettings(ms(1_000), ms(5_000), ms(5_000), ms(500), 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ax.cluster.ack-timeout")
                .hasMessageContaining("ax.cluster.lease");
    }

    @Test
    void aPollIntervalAboveTheAckTimeoutNamesBothSettings() {
        assertThatThrownBy(() -> new ClusterSettings(ms(1_000), ms(5_000), ms(1_000), ms(2_000), 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ax.cluster.poll-interval")
                .hasMessageContaining("ax.cluster.ack-timeout");
    }

    @Test
    void zeroNegativeAndOutOfRangeValuesAreRefused() {
        assertThatThrownBy(() -> new ClusterSettings(Duration.ZERO, ms(5_000), ms(1_000), ms(500), 32))
                .hasMessageContaining("ax.cluster.heartbeat must be positive");
        assertThatThrownBy(() -> new ClusterSettings(ms(1_000), ms(-1), ms(1_000), ms(500), 32))
                .hasMessageContaining("ax.cluster.lease must be positive");
        assertThatThrownBy(() -> new ClusterSettings(ms(1_000), ms(5_000), ms(1_000), ms(500), 0))
                .hasMessageContaining("ax.cluster.virtual-nodes");
    }

    @Test
    void theSafetyMarginIsAThirdOfTheHeartbeatAtMostAFifthOfTheLease() {
        assertThat(new ClusterSettings(ms(300), ms(1_500), ms(1_000), ms(100), 32).safetyMargin())
                .isEqualTo(ms(100));
        assertThat(new ClusterSettings(ms(3_000), ms(6_100), ms(1_000), ms(100), 32).safetyMargin())
                .isEqualTo(ms(1_000));
    }
}
