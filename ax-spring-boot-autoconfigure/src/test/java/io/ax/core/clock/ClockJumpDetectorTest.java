package io.ax.core.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.ax.test.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ClockJumpDetectorTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration THRESHOLD = Duration.ofMillis(500);
    private static final Duration PAUSE = Duration.ofSeconds(2);

    private final FakeClock clock = new FakeClock(T0, 1_000_000);
    private final ClockJumpDetector detector = new ClockJumpDetector(clock, THRESHOLD, PAUSE);
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(ClockJumpDetector.class);

    @BeforeEach
    void captureLog() {
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void releaseLog() {
        logger.detachAppender(log);
    }

    @Test
    void clocksThatMoveTogetherAreNoJumpHoweverLongBetweenChecks() {
        clock.advance(Duration.ofSeconds(1));
        assertThat(detector.check()).isEmpty();
        clock.advance(Duration.ofMinutes(30)); // a long GC pause or a stalled checker moves both clocks
        assertThat(detector.check()).isEmpty();
        assertThat(detector.isPaused()).isFalse();
        assertThat(detector.status().jumps()).isZero();
        assertThat(log.list).isEmpty();
    }

    @Test
    void aStallBetweenTheReadingsOfACheckIsNoJumpAndLeavesTheClusterOffsetAlone() {
        // the thread stands still for a second between its readings of the two clocks (a GC pause): the wall clock
        // looks a second ahead or behind the monotonic one, and the offset would make up for that
        StallingClock stalling = new StallingClock(clock);
        ClusterTime time = new ClusterTime(stalling, new ReferenceOf(clock), Duration.ofSeconds(30));
        time.measure();
        ClockJumpDetector watch = new ClockJumpDetector(stalling, time, THRESHOLD, PAUSE);
        Instant before = time.instant();

        stalling.stallAtNextWallReading(Duration.ofSeconds(1));
        assertThat(watch.check()).isEmpty();
        // the corrected clock went on by the stall, not by twice the stall
        assertThat(Duration.between(before, time.instant())).isEqualTo(Duration.ofSeconds(1));
        assertThat(watch.check()).isEmpty();
        assertThat(watch.status().jumps()).isZero();

        clock.jumpWall(Duration.ofSeconds(5));
        assertThat(watch.check()).as("a real jump after the stall").isPresent();
    }

    /** The test's clock, whose thread stands still once right before it reads the wall clock. */
    private static final class StallingClock implements AxClock {
        private final FakeClock clock;
        private Duration stall = Duration.ZERO;

        StallingClock(FakeClock clock) {
            this.clock = clock;
        }

        void stallAtNextWallReading(Duration stall) {
            this.stall = stall;
        }

        @Override
        public Instant instant() {
            clock.advance(stall);
            stall = Duration.ZERO;
            return clock.instant();
        }

        @Override
        public long nanoTime() {
            return clock.nanoTime();
        }
    }

    /** A reference clock that reads the fake clock, at once. */
    private record ReferenceOf(FakeClock clock) implements TimeReference {
        @Override
        public Instant read() {
            return clock.instant();
        }

        @Override
        public String name() {
            return "database";
        }
    }

    @Test
    void aDifferenceWithinTheThresholdIsNoJump() {
        clock.advance(Duration.ofSeconds(1));
        clock.jumpWall(THRESHOLD);
        assertThat(detector.check()).isEmpty();
        clock.jumpWall(THRESHOLD.negated());
        assertThat(detector.check()).isEmpty();
    }

    @Test
    void aForwardJumpPausesTriggerDecisionsAndLogsOneWarning() {
        clock.advance(Duration.ofSeconds(1));
        clock.jumpWall(Duration.ofSeconds(30));
        assertThat(detector.check()).contains(Duration.ofSeconds(30));
        assertThat(detector.check()).as("the same jump is seen once").isEmpty();

        ClockStatus status = detector.status();
        assertThat(status.paused()).isTrue();
        assertThat(status.pauseLeft()).isEqualTo(PAUSE);
        assertThat(status.jumps()).isEqualTo(1);
        assertThat(status.lastJump()).isEqualTo(Duration.ofSeconds(30));
        assertThat(status.lastJumpAt()).isEqualTo(T0.plusSeconds(31));
        assertThat(log.list).singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.WARN);
            assertThat(e.getFormattedMessage())
                    .contains("jumped forwards by 30000 ms")
                    .contains("wait 2000 ms");
            assertThat(e.getThrowableProxy()).isNull();
        });
    }

    @Test
    void aBackwardJumpPausesTriggerDecisionsToo() {
        clock.advance(Duration.ofSeconds(1));
        clock.jumpWall(Duration.ofMinutes(-10));
        assertThat(detector.check()).contains(Duration.ofMinutes(-10));
        assertThat(detector.isPaused()).isTrue();
        assertThat(log.list)
                .singleElement()
                .extracting(ILoggingEvent::getFormattedMessage)
                .asString()
                .contains("jumped backwards by 600000 ms");
    }

    @Test
    void thePauseEndsByTheMonotonicClock() {
        clock.jumpWall(Duration.ofSeconds(-5));
        detector.check();
        clock.advance(PAUSE.minusMillis(1));
        assertThat(detector.isPaused()).isTrue();
        assertThat(detector.status().pauseLeft()).isEqualTo(Duration.ofMillis(1));
        clock.advance(Duration.ofMillis(1));
        assertThat(detector.isPaused()).isFalse();
        assertThat(detector.status().pauseLeft()).isZero();
        assertThat(detector.status().jumps()).isEqualTo(1);
    }

    @Test
    void aFireWaitsForTheEndOfThePause() {
        clock.jumpWall(Duration.ofSeconds(10));
        detector.check();
        Instant due = clock.instant().minusSeconds(1);
        assertThat(detector.holdUntil(due)).hasValue(clock.nanoTime() + PAUSE.toNanos());
        clock.advance(PAUSE);
        assertThat(detector.holdUntil(due)).isEmpty();
    }

    @Test
    void aFireWhoseTimeTheWallClockHasNotReachedWaitsForIt() {
        // the monotonic deadline came, but the wall clock went back meanwhile: firing now would be early
        Instant fireTime = clock.instant().plusSeconds(10);
        assertThat(detector.holdUntil(fireTime))
                .hasValue(clock.nanoTime() + Duration.ofSeconds(10).toNanos());
        assertThat(detector.holdUntil(clock.instant().plus(THRESHOLD))).isEmpty();
        assertThat(detector.holdUntil(clock.instant().minusSeconds(3))).isEmpty();
    }

    @Test
    void rejectsSettingsThatMakeNoSense() {
        assertThatThrownBy(() -> new ClockJumpDetector(clock, Duration.ZERO, PAUSE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threshold");
        assertThatThrownBy(() -> new ClockJumpDetector(clock, THRESHOLD, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pause");
    }
}
