package io.ax.core.engine.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.AxScheduler;
import io.ax.core.InvalidScheduleException;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The horizon over edge instants and clocks, as the wheel tests go over edge nano clocks: no overflow anywhere. */
class HorizonTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    static Stream<Instant> edges() {
        return Stream.of(
                Instant.MIN,
                Instant.EPOCH.minusNanos(1),
                NOW.minus(AxScheduler.HORIZON).minusNanos(1),
                NOW.minus(AxScheduler.HORIZON),
                NOW.minusNanos(1),
                NOW,
                NOW.plus(AxScheduler.HORIZON),
                NOW.plus(AxScheduler.HORIZON).plusNanos(1),
                Instant.parse("9999-12-31T23:59:59.999999999Z"),
                Instant.MAX);
    }

    @ParameterizedTest
    @MethodSource("edges")
    void theWheelsDelayIsNeverNegativeNorBeyondTheHorizonAndNeverOverflows(Instant time) {
        for (Instant now : new Instant[] {NOW, Instant.MIN, Instant.MAX}) {
            long nanos = Horizon.nanosUntil(now, time);

            assertThat(nanos).isBetween(0L, AxScheduler.HORIZON.toNanos());
        }
    }

    @ParameterizedTest
    @MethodSource("edges")
    void aTimeIsAcceptedExactlyWhenItLiesWithinTheHorizonEitherWay(Instant time) {
        boolean within = !time.isAfter(NOW.plus(AxScheduler.HORIZON)) && !time.isBefore(NOW.minus(AxScheduler.HORIZON));

        if (within) {
            assertThatCode(() -> Horizon.check(time, NOW, "at")).doesNotThrowAnyException();
        } else {
            assertThatThrownBy(() -> Horizon.check(time, NOW, "at"))
                    .isInstanceOf(InvalidScheduleException.class)
                    .hasMessageStartingWith("at is " + time);
        }
    }

    @ParameterizedTest
    @MethodSource("delays")
    void aDelayBeyondTheHorizonIsRefusedBeforeAnythingAddsIt(Duration delay, boolean accepted) {
        if (accepted) {
            assertThatCode(() -> Horizon.checkDelay(delay, NOW, "delay")).doesNotThrowAnyException();
            assertThat(Horizon.nanosUntil(NOW, NOW.plus(delay))).isEqualTo(delay.toNanos());
        } else {
            assertThatThrownBy(() -> Horizon.checkDelay(delay, NOW, "delay"))
                    .isInstanceOf(InvalidScheduleException.class)
                    .hasMessageContaining("beyond the horizon");
        }
    }

    static Stream<Arguments> delays() {
        return Stream.of(
                Arguments.of(Duration.ZERO, true),
                Arguments.of(AxScheduler.HORIZON, true),
                Arguments.of(AxScheduler.HORIZON.plusNanos(1), false),
                Arguments.of(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), false));
    }
}
