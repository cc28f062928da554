package io.ax.core.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A spaced trigger passes over the fires that come sooner than its spacing and keeps its trigger's phase. */
class SpacedTriggerTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @Test
    void aFixedRateShorterThanTheSpacingFiresOnTheFirstPeriodThatKeepsIt() {
        Trigger spaced = new SpacedTrigger(
                IntervalTrigger.fixedRate(Duration.ofSeconds(1), Duration.ZERO), Duration.ofMillis(2500));

        assertThat(chain(spaced, T0, 4)).containsExactly(T0, T0.plusSeconds(3), T0.plusSeconds(6), T0.plusSeconds(9));
    }

    @Test
    void aFixedDelayCountsFromTheEndOfTheRunThenInPeriodsUntilTheSpacingIsKept() {
        Trigger spaced = new SpacedTrigger(
                IntervalTrigger.fixedDelay(Duration.ofSeconds(2), Duration.ZERO), Duration.ofSeconds(10));

        // the run ended 1 s after its start: 3 s, 5 s, 7 s, 9 s are passed over, 11 s keeps the spacing
        assertThat(spaced.nextFireTime(T0, T0.plusSeconds(1))).contains(T0.plusSeconds(11));
        // a run that ends after the spacing is not held back further
        assertThat(spaced.nextFireTime(T0, T0.plusSeconds(30))).contains(T0.plusSeconds(32));
        assertThat(spaced.measuresFromCompletion()).isTrue();
    }

    @Test
    void aCronFiresOnItsFirstTimeAtOrAfterTheSpacing() {
        Trigger spaced = new SpacedTrigger(CronTrigger.of("0/5 * * * * ?", ZoneOffset.UTC), Duration.ofSeconds(12));

        assertThat(chain(spaced, T0, 3)).containsExactly(T0, T0.plusSeconds(15), T0.plusSeconds(30));
        // exactly at the spacing is kept
        Trigger even = new SpacedTrigger(CronTrigger.of("0/5 * * * * ?", ZoneOffset.UTC), Duration.ofSeconds(10));
        assertThat(even.nextFireTime(T0, T0)).contains(T0.plusSeconds(10));
    }

    @Test
    void aSpacingWithinThePeriodChangesNothing() {
        IntervalTrigger rate = IntervalTrigger.fixedRate(Duration.ofMinutes(1), Duration.ZERO);
        Trigger spaced = new SpacedTrigger(rate, Duration.ofSeconds(30));

        assertThat(chain(spaced, T0, 5)).isEqualTo(chain(rate, T0, 5));
        assertThat(spaced.firstFireTime(T0)).isEqualTo(rate.firstFireTime(T0));
    }

    @Test
    void resumingAfterMissedFiresKeepsTheSpacingFromTheLastFire() {
        Trigger spaced = new SpacedTrigger(
                IntervalTrigger.fixedRate(Duration.ofSeconds(1), Duration.ZERO), Duration.ofSeconds(5));

        // resumed 2.5 s after the last fire: the rate would fire at 3 s, the spacing holds it to 5 s
        assertThat(spaced.resumeAfter(T0, T0.plusMillis(2500))).contains(T0.plusSeconds(5));
        // resumed long after: the rate's own next fire
        assertThat(spaced.resumeAfter(T0, T0.plusMillis(60_500))).contains(T0.plusSeconds(61));
    }

    @Test
    void onlyTriggersThatFireOnTheirOwnWithAPositiveSpacing() {
        assertThatThrownBy(() -> new SpacedTrigger(OnDemandTrigger.INSTANCE, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only a cron or interval trigger");
        assertThatThrownBy(() -> new SpacedTrigger(DependencyTrigger.after("a"), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        CronTrigger cron = CronTrigger.of("0 * * * * ?", ZoneOffset.UTC);
        assertThatThrownBy(
                        () -> new SpacedTrigger(new SpacedTrigger(cron, Duration.ofSeconds(1)), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SpacedTrigger(cron, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
        assertThat(new SpacedTrigger(cron, Duration.ofSeconds(90)).describe())
                .isEqualTo("cron '0 * * * * ?' in Z, fires at least PT1M30S apart");
    }

    /** {@code count} fires from the fire at {@code start}, each run ending as it starts. */
    private static List<Instant> chain(Trigger trigger, Instant start, int count) {
        List<Instant> fires = new ArrayList<>();
        Instant fire = start;
        while (fires.size() < count) {
            fires.add(fire);
            fire = trigger.nextFireTime(fire, fire).orElseThrow();
        }
        return fires;
    }
}
