package io.ax.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The test timer hands on what is due by the test's clock, never by real time. */
class VirtualTimerTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final AxTestClock clock = new AxTestClock(Instant.parse("2026-12-01T00:00:00Z"));
    private final List<Object> handed = new CopyOnWriteArrayList<>();
    private final VirtualTimer timer = new VirtualTimer(clock::nanoTime, handed::add, "ax-wheel");

    @AfterEach
    void close() {
        timer.close();
    }

    @Test
    void aDeadlineAlreadyPastIsHandedOnAtOnce() {
        timer.start();
        timer.schedule(clock.nanoTime(), "now");

        await().atMost(BOUND).until(() -> handed.contains("now"));
        assertThat(timer.size()).isZero();
        await().atMost(BOUND).until(timer::settled);
    }

    @Test
    void aDeadlineAheadWaitsForTheClockHoweverLongRealTimeRuns() {
        timer.start();
        long inAnHour = clock.nanoTime() + Duration.ofHours(1).toNanos();
        timer.schedule(inAnHour, "later");
        timer.schedule(inAnHour + 1, "after that");

        assertThat(timer.nextDeadline()).hasValue(inAnHour);
        assertThat(timer.settled()).isTrue();
        assertThat(handed).isEmpty();

        clock.advance(Duration.ofHours(1));
        timer.wake();

        await().atMost(BOUND).until(() -> handed.contains("later"));
        assertThat(handed).containsExactly("later");
        assertThat(timer.nextDeadline()).hasValue(inAnHour + 1);
    }

    @Test
    void cancelAndRescheduleChangeWhatWaits() {
        timer.start();
        long base = clock.nanoTime();
        long a = timer.schedule(base + 100, "a");
        long b = timer.schedule(base + 200, "b");

        assertThat(timer.cancel(a)).isTrue();
        assertThat(timer.cancel(a)).isFalse();
        assertThat(timer.payload(b)).isEqualTo("b");
        assertThat(timer.reschedule(b, base + 50)).isTrue();
        assertThat(timer.nextDeadline()).hasValue(base + 50);

        clock.advance(Duration.ofNanos(60));
        timer.wake();

        await().atMost(BOUND).until(() -> handed.contains("b"));
        assertThat(timer.payload(b)).isNull();
        assertThat(timer.reschedule(b, base + 500)).isFalse();
        assertThat(timer.nextDeadline()).isEmpty();
    }

    @Test
    void aDispatcherThatThrowsIsCountedAndTheTimerGoesOn() {
        VirtualTimer throwing = new VirtualTimer(
                clock::nanoTime,
                p -> {
                    if (p.equals("bad")) {
                        throw new IllegalStateException("boom");
                    }
                    handed.add(p);
                },
                "ax-wheel-throwing");
        try {
            throwing.start();
            throwing.schedule(clock.nanoTime(), "bad");
            throwing.schedule(clock.nanoTime(), "good");

            await().atMost(BOUND).until(() -> handed.contains("good"));
            assertThat(throwing.dispatchFailures()).isEqualTo(1);
        } finally {
            throwing.close();
        }
    }

    @Test
    void aClosedTimerRefusesWork() {
        timer.start();
        timer.close();

        assertThatThrownBy(() -> timer.schedule(clock.nanoTime(), "x")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(timer::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theClockMovesWallAndMonotonicTimeTogetherAndOnlyForward() {
        Instant wall = clock.instant();
        long nanos = clock.nanoTime();

        clock.advance(Duration.ofMinutes(90));

        assertThat(clock.instant()).isEqualTo(wall.plus(Duration.ofMinutes(90)));
        assertThat(clock.nanoTime() - nanos).isEqualTo(Duration.ofMinutes(90).toNanos());
        assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1))).hasMessageContaining("moves forward only");
    }
}
