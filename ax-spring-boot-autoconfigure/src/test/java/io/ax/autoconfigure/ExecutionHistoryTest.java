package io.ax.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExecutionHistoryTest {

    private static final Instant START = Instant.parse("2026-11-30T10:00:30Z");

    private final FakeClock clock = new FakeClock(START);
    private final ExecutionHistory history = new ExecutionHistory(clock);
    private final AxTask task = task();

    @Test
    void anHourHasSixtyMinutesEndingWithTheCurrentOne() {
        ExecutionHistory.Hour hour = history.lastHour();

        assertThat(hour.minutes()).hasSize(60);
        assertThat(hour.minutes().get(59).start()).isEqualTo(Instant.parse("2026-11-30T10:00:00Z"));
        assertThat(hour.minutes().get(0).start()).isEqualTo(Instant.parse("2026-11-30T09:01:00Z"));
        assertThat(hour.minutes()).allSatisfy(m -> {
            assertThat(m.fires()).isZero();
            assertThat(m.latenessP50Millis()).isNull();
        });
        assertThat(hour.latenessP50Millis()).isNull();
    }

    @Test
    void firstAttemptsCountAsFiresWithTheirLatenessAndRetriesDoNot() {
        history.started(task, 1, Duration.ofMillis(5), Duration.ZERO);
        history.started(task, 1, Duration.ofMillis(7), Duration.ZERO);
        history.started(task, 2, Duration.ofSeconds(30), Duration.ZERO);
        history.finished(task, InstanceState.SUCCESS, Duration.ofMillis(1));
        history.finished(task, InstanceState.FAILED, Duration.ofMillis(1));
        history.finished(task, InstanceState.TIMEOUT, Duration.ofMillis(1));
        history.deadLettered(task);

        AxDescriptors.Minute now = history.lastHour().minutes().get(59);

        assertThat(now.fires()).isEqualTo(2);
        assertThat(now.successes()).isEqualTo(1);
        assertThat(now.failures()).isEqualTo(2);
        assertThat(now.deadLetters()).isEqualTo(1);
        assertThat(now.latenessP50Millis()).isEqualTo(5);
        assertThat(now.latenessP99Millis()).isEqualTo(7);
    }

    @Test
    void eachMinuteKeepsItsOwnCountsAndTheHourItsPercentiles() {
        for (int i = 1; i <= 100; i++) {
            history.started(task, 1, Duration.ofMillis(i), Duration.ZERO);
        }
        clock.advance(Duration.ofMinutes(1));
        history.started(task, 1, Duration.ofSeconds(2), Duration.ZERO);

        ExecutionHistory.Hour hour = history.lastHour();
        List<AxDescriptors.Minute> minutes = hour.minutes();

        assertThat(minutes.get(58).fires()).isEqualTo(100);
        assertThat(minutes.get(58).latenessP50Millis()).isBetween(50L, 56L);
        assertThat(minutes.get(58).latenessP99Millis()).isBetween(99L, 111L);
        assertThat(minutes.get(59).fires()).isEqualTo(1);
        assertThat(minutes.get(59).latenessP50Millis()).isBetween(2000L, 2250L);
        assertThat(hour.latenessP50Millis()).as("over 101 fires").isBetween(51L, 57L);
        assertThat(hour.latenessP99Millis()).isBetween(100L, 111L);
    }

    @Test
    void aMinuteOlderThanAnHourIsForgottenAndItsBucketReused() {
        history.started(task, 1, Duration.ofMillis(900), Duration.ZERO);
        clock.advance(Duration.ofMinutes(59));
        assertThat(history.lastHour().minutes().get(0).fires())
                .as("59 minutes later")
                .isEqualTo(1);

        clock.advance(Duration.ofMinutes(1));
        assertThat(history.lastHour().minutes())
                .allSatisfy(m -> assertThat(m.fires()).isZero());

        history.started(task, 1, Duration.ofMillis(3), Duration.ZERO);
        AxDescriptors.Minute now = history.lastHour().minutes().get(59);
        assertThat(now.fires()).as("the reused bucket starts empty").isEqualTo(1);
        assertThat(now.latenessP99Millis()).isEqualTo(3);
    }

    @Test
    void aWallClockThatWentBackDropsTheLaterMinuteRatherThanMixingThem() {
        clock.advance(Duration.ofMinutes(60));
        history.started(task, 1, Duration.ofMillis(10), Duration.ZERO);
        clock.jumpWall(Duration.ofMinutes(-60));

        history.started(task, 1, Duration.ofMillis(1), Duration.ZERO);

        AxDescriptors.Minute now = history.lastHour().minutes().get(59);
        assertThat(now.fires()).isEqualTo(1);
        assertThat(now.latenessP50Millis()).isEqualTo(1);
    }

    @Test
    void theHistogramIsExactBelowSixteenMillisAndAtMostAnEighthAboveAbove() {
        for (long v : new long[] {0, 1, 15, 16, 17, 100, 1_000, 59_999, 3_600_000, 86_400_000L}) {
            long shown = LatenessHistogram.highest(LatenessHistogram.bin(v));
            assertThat(shown).as("%d ms", v).isGreaterThanOrEqualTo(v).isLessThanOrEqualTo(v + v / 8);
        }
        assertThat(LatenessHistogram.bin(Long.MAX_VALUE)).isEqualTo(LatenessHistogram.BINS - 1);
        for (int i = 1; i < LatenessHistogram.BINS; i++) {
            assertThat(LatenessHistogram.bin(LatenessHistogram.highest(i - 1) + 1))
                    .as("bin %d starts where bin %d ends", i, i - 1)
                    .isEqualTo(i);
        }
    }

    private static AxTask task() {
        return AxTask.builder("t")
                .trigger(IntervalTrigger.fixedRate(Duration.ofSeconds(1), Duration.ZERO))
                .build();
    }
}
