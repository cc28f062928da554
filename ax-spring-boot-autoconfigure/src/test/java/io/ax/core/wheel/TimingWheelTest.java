package io.ax.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class TimingWheelTest {

    private static final long MS = 1_000_000L;

    private final List<String> fired = new ArrayList<>();
    private final TimingWheel<String> wheel = new TimingWheel<>(MS, 0L);

    @Test
    void firesInDeadlineOrderWithTiesInScheduleOrder() {
        wheel.schedule(3_000 * MS, "far");
        wheel.schedule(7 * MS, "tie-1");
        wheel.schedule(2 * MS + 1, "near");
        wheel.schedule(70 * MS, "middle");
        wheel.schedule(7 * MS, "tie-2");
        wheel.schedule(7 * MS, "tie-3");

        int count = wheel.advance(10_000 * MS, fired::add);

        assertThat(count).isEqualTo(6);
        assertThat(fired).containsExactly("near", "tie-1", "tie-2", "tie-3", "middle", "far");
        assertThat(wheel.size()).isZero();
    }

    @Test
    void tiesKeepScheduleOrderWhenTheFirstCascadedFromAHigherLevel() {
        wheel.schedule(5_000 * MS, "scheduled-first"); // lands on a high level
        wheel.advance(4_990 * MS, fired::add);
        wheel.schedule(5_000 * MS, "scheduled-second"); // lands on level 0 or 1

        wheel.advance(5_000 * MS, fired::add);

        assertThat(fired).containsExactly("scheduled-first", "scheduled-second");
    }

    @Test
    void rescheduleMovesAnEntryEarlierOrLaterKeepingItsHandle() {
        long later = wheel.schedule(5 * MS, "moved-later");
        long earlier = wheel.schedule(9_000 * MS, "moved-earlier");
        wheel.schedule(100 * MS, "fixed");

        assertThat(wheel.reschedule(later, 2_000 * MS)).isTrue();
        assertThat(wheel.reschedule(earlier, 50 * MS)).isTrue();

        wheel.advance(60 * MS, fired::add);
        assertThat(fired).containsExactly("moved-earlier");
        assertThat(wheel.payload(later)).isEqualTo("moved-later");
        wheel.advance(1_999 * MS, fired::add);
        assertThat(fired).containsExactly("moved-earlier", "fixed");
        wheel.advance(2_000 * MS, fired::add);
        assertThat(fired).containsExactly("moved-earlier", "fixed", "moved-later");
        assertThat(wheel.size()).isZero();
    }

    @Test
    void rescheduleAndPayloadIgnoreFiredCancelledAndStaleHandles() {
        long firedHandle = wheel.schedule(1 * MS, "fired");
        long cancelled = wheel.schedule(5 * MS, "cancelled");
        wheel.cancel(cancelled);
        wheel.advance(2 * MS, fired::add);
        long reuser = wheel.schedule(10 * MS, "reuses a freed slot");

        assertThat(wheel.reschedule(firedHandle, 3 * MS)).isFalse();
        assertThat(wheel.reschedule(cancelled, 3 * MS)).isFalse();
        assertThat(wheel.payload(firedHandle)).isNull();
        assertThat(wheel.payload(cancelled)).isNull();
        assertThat(wheel.payload(reuser)).isEqualTo("reuses a freed slot");
        wheel.advance(9 * MS, fired::add);
        assertThat(fired).containsExactly("fired");
    }

    @Test
    void neverFiresBeforeTheDeadlineEvenWithinItsTick() {
        wheel.schedule(10 * MS + 1, "entry");

        wheel.advance(10 * MS, fired::add);
        assertThat(fired).isEmpty();

        wheel.advance(10 * MS + 1, fired::add);
        assertThat(fired).containsExactly("entry");
    }

    @Test
    void deadlineAlreadyPastFiresOnTheNextAdvance() {
        wheel.advance(1_000 * MS, fired::add);
        wheel.schedule(5 * MS, "late");
        wheel.schedule(-9_000 * MS, "later");

        wheel.advance(1_000 * MS, fired::add);

        assertThat(fired).containsExactly("later", "late");
    }

    @Test
    void cancelledEntryNeverFiresAndCancelReportsWhetherItWasPending() {
        long kept = wheel.schedule(5 * MS, "kept");
        long cancelled = wheel.schedule(5 * MS, "cancelled");

        assertThat(wheel.cancel(cancelled)).isTrue();
        assertThat(wheel.cancel(cancelled)).isFalse();
        assertThat(wheel.size()).isEqualTo(1);
        wheel.advance(5 * MS, fired::add);

        assertThat(fired).containsExactly("kept");
        assertThat(wheel.cancel(kept)).as("cancel after fire").isFalse();
    }

    @Test
    void staleHandleDoesNotCancelTheEntryThatReusedItsSlot() {
        long stale = wheel.schedule(5 * MS, "first");
        wheel.cancel(stale);
        long reused = wheel.schedule(5 * MS, "second");
        assertThat((int) reused).as("same slot").isEqualTo((int) stale);

        assertThat(wheel.cancel(stale)).isFalse();
        wheel.advance(5 * MS, fired::add);

        assertThat(fired).containsExactly("second");
    }

    @Test
    void handlesThatWereNeverIssuedCancelNothing() {
        wheel.schedule(5 * MS, "entry");

        assertThat(wheel.cancel(0L)).isFalse();
        assertThat(wheel.cancel(-1L)).isFalse();
        assertThat(wheel.cancel(Long.MAX_VALUE)).isFalse();
        assertThat(wheel.cancel(5_000L)).isFalse();

        assertThat(wheel.advance(5 * MS, fired::add)).isEqualTo(1);
    }

    @Test
    void sinkMayCancelAnEntryDueInTheSameAdvance() {
        long[] victim = new long[1];
        wheel.schedule(1 * MS, "canceller");
        victim[0] = wheel.schedule(2 * MS, "victim");
        wheel.schedule(3 * MS, "survivor");

        wheel.advance(3 * MS, payload -> {
            fired.add(payload);
            if (payload.equals("canceller")) {
                wheel.cancel(victim[0]);
                wheel.schedule(2 * MS, "rescheduled"); // reuses the victim's slot; fires next time
            }
        });

        assertThat(fired).containsExactly("canceller", "survivor");
        wheel.advance(3 * MS, fired::add);
        assertThat(fired).containsExactly("canceller", "survivor", "rescheduled");
    }

    @Test
    void throwingSinkLeavesUndeliveredEntriesScheduledForTheNextAdvance() {
        for (int i = 1; i <= 5; i++) {
            wheel.schedule(i * MS, "due-" + i);
        }
        wheel.schedule(50 * MS, "later");

        assertThatThrownBy(() -> wheel.advance(10 * MS, payload -> {
                    fired.add(payload);
                    if (payload.equals("due-2")) {
                        throw new IllegalStateException("sink failed");
                    }
                }))
                .hasMessage("sink failed");

        assertThat(fired).containsExactly("due-1", "due-2");
        assertThat(wheel.size()).isEqualTo(4);
        assertThat(wheel.nextDeadline()).hasValue(3 * MS);
        wheel.advance(10 * MS, fired::add);
        wheel.advance(50 * MS, fired::add);
        assertThat(fired).containsExactly("due-1", "due-2", "due-3", "due-4", "due-5", "later");
        assertThat(wheel.size()).isZero();
    }

    @Test
    void advanceFromTheSinkIsRejected() {
        wheel.schedule(1 * MS, "entry");

        assertThatThrownBy(() -> wheel.advance(1 * MS, payload -> wheel.advance(2 * MS, fired::add)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nextDeadlineIsEmptyForAnEmptyWheelAndExactWithinTheCurrentTurn() {
        assertThat(wheel.nextDeadline()).isEmpty();

        wheel.schedule(5 * MS + 500, "entry");

        assertThat(wheel.nextDeadline()).hasValue(5 * MS + 500);
    }

    @Test
    void advancingToNextDeadlineReachesAFarEntryInFewStepsAndNeverEarly() {
        long deadline = TimeUnit.DAYS.toNanos(400) + 12_345;
        wheel.schedule(deadline, "far");

        int steps = 0;
        for (OptionalLong next = wheel.nextDeadline(); next.isPresent(); next = wheel.nextDeadline()) {
            assertThat(next.getAsLong()).isLessThanOrEqualTo(deadline);
            assertThat(fired).isEmpty();
            wheel.advance(next.getAsLong(), fired::add);
            steps++;
        }

        assertThat(fired).containsExactly("far");
        assertThat(steps).isLessThanOrEqualTo(2 * TimingWheel.LEVELS);
    }

    @Test
    @Timeout(5)
    void jumpOfHoursWithNanosecondTicksDoesNotWalkEveryTick() {
        TimingWheel<String> fine = new TimingWheel<>(1, 0L);
        fine.schedule(TimeUnit.HOURS.toNanos(1), "1h");
        fine.schedule(TimeUnit.HOURS.toNanos(3), "3h");
        fine.schedule(TimeUnit.DAYS.toNanos(30), "30d");

        fine.advance(TimeUnit.HOURS.toNanos(5), fired::add);
        assertThat(fired).containsExactly("1h", "3h");
        fine.advance(TimeUnit.DAYS.toNanos(30), fired::add);

        assertThat(fired).containsExactly("1h", "3h", "30d");
    }

    @Test
    void rejectsANonPositiveTickAndANullPayload() {
        assertThatThrownBy(() -> new TimingWheel<String>(0, 0L)).hasMessageContaining("tickNanos");
        assertThatThrownBy(() -> wheel.schedule(1, null)).isInstanceOf(NullPointerException.class);
    }
}
