package io.ax.core.clock;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.test.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/**
 * The offset from the cluster's clock: the least each reading allows (the reference read at the end of the round
 * trip), so that the corrected clock is never ahead of the reference; the reading that allows the highest is kept.
 */
class ClusterTimeTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final FakeClock local = new FakeClock(T0);

    /** A reference clock {@code ahead} of the local one, each reading taking the next round trip of the queue. */
    private final class Remote implements TimeReference {
        final Deque<Duration> roundTrips = new ArrayDeque<>();
        Duration ahead = Duration.ZERO;
        /** How long a reading waits before its request leaves (for a free connection, say). */
        Duration waitFirst = Duration.ZERO;

        boolean down;

        @Override
        public Instant read() {
            if (down) {
                throw new IllegalStateException("connection refused");
            }
            Duration rtt = roundTrips.isEmpty() ? Duration.ofMillis(2) : roundTrips.poll();
            local.advance(waitFirst);
            local.advance(rtt.dividedBy(2)); // the request travels
            Instant answer = local.instant().plus(ahead);
            local.advance(rtt.dividedBy(2)); // the answer travels
            return answer;
        }

        @Override
        public String name() {
            return "redis";
        }
    }

    @Test
    void theOffsetIsTheLeastTheReadingAllowsAndTheUncertaintyItsRoundTrip() {
        Remote remote = new Remote();
        remote.ahead = Duration.ofSeconds(2);
        remote.roundTrips.addAll(
                java.util.List.of(Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofMillis(10)));
        ClusterTime time = new ClusterTime(local, remote, Duration.ofSeconds(30));

        assertThat(time.measure()).isTrue();

        // read in the middle of its 10 ms: the reference could have been read as late as 5 ms after that
        assertThat(time.status().offset()).isEqualTo(Duration.ofMillis(1_995));
        assertThat(time.status().uncertainty()).isEqualTo(Duration.ofMillis(10));
        assertThat(time.status().source()).isEqualTo("redis");
        assertThat(time.instant()).isEqualTo(local.instant().plusMillis(1_995));
    }

    @Test
    void aReadingThatWaitedBeforeItsRequestLeftDoesNotPutTheClockAhead() {
        Remote remote = new Remote();
        remote.ahead = Duration.ofSeconds(2);
        remote.waitFirst = Duration.ofMillis(200); // no free connection in the pool: every reading waits first
        ClusterTime time = new ClusterTime(local, remote, Duration.ofSeconds(30));

        time.measure();

        // taken at the middle of its 202 ms, the reading said the reference was 2.1 s ahead: fires 100 ms early
        assertThat(time.instant()).isBeforeOrEqualTo(local.instant().plus(remote.ahead));
        assertThat(time.status().offset()).isEqualTo(Duration.ofMillis(1_999));
        assertThat(time.status().uncertainty()).isEqualTo(Duration.ofMillis(202));
    }

    @Test
    void theReadingThatAllowsTheHighestOffsetIsKept() {
        Remote remote = new Remote();
        remote.ahead = Duration.ofMillis(-300);
        remote.roundTrips.addAll(java.util.List.of(Duration.ofMillis(40), Duration.ofMillis(4), Duration.ofMillis(20)));
        ClusterTime time = new ClusterTime(local, remote, Duration.ofSeconds(30));

        time.measure();

        assertThat(time.status().uncertainty()).isEqualTo(Duration.ofMillis(4));
        assertThat(time.status().offset()).isEqualTo(Duration.ofMillis(-302));
    }

    @Test
    void aFailedReadingKeepsTheLastOffsetAndSaysWhy() {
        Remote remote = new Remote();
        remote.ahead = Duration.ofMillis(750);
        ClusterTime time = new ClusterTime(local, remote, Duration.ofSeconds(30));
        time.measure();

        remote.down = true;
        remote.ahead = Duration.ofSeconds(9);
        assertThat(time.measure()).isFalse();

        assertThat(time.status().offset()).isEqualTo(Duration.ofMillis(749)); // less 2 ms of round trip
        assertThat(time.status().failing()).contains("connection refused");
        assertThat(time.instant()).isEqualTo(local.instant().plusMillis(749));

        remote.down = false;
        assertThat(time.measure()).isTrue();
        assertThat(time.status().failing()).isNull();
        assertThat(time.status().offset()).isEqualTo(Duration.ofMillis(8_999));
    }

    @Test
    void onlyWallTimeIsCorrected() {
        Remote remote = new Remote();
        remote.ahead = Duration.ofHours(1);
        ClusterTime time = new ClusterTime(local, remote, Duration.ofSeconds(30));
        time.measure();

        assertThat(time.nanoTime()).isEqualTo(local.nanoTime());
    }

    @Test
    void aJumpOfTheOffsetIsAClockJumpForTheGuard() {
        Remote remote = new Remote();
        ClusterTime time = new ClusterTime(local, remote, Duration.ofSeconds(30));
        time.measure();
        ClockJumpDetector detector = new ClockJumpDetector(time, Duration.ofMillis(500), Duration.ofSeconds(2));

        remote.ahead = Duration.ofSeconds(3);
        time.measure();

        assertThat(detector.check())
                .hasValueSatisfying(jump ->
                        assertThat(jump).isGreaterThan(Duration.ofMillis(2_900)).isLessThan(Duration.ofMillis(3_100)));
    }
}
