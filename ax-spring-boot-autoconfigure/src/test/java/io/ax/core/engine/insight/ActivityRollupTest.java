package io.ax.core.engine.insight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.engine.Activity;
import io.ax.core.store.ActivityRow;
import io.ax.core.store.ActivityStore;
import io.ax.core.store.ActivityTotals;
import io.ax.core.store.InMemoryActivityStore;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A node's share of the activity rollup: what it counts, what it writes and when, how a read adds every node's rows
 * up with this node's freshest counts, and what an outage of the store costs. Time is a fake clock; flushes are
 * called by the test.
 */
class ActivityRollupTest {

    private static final Instant START = Instant.parse("2026-11-30T10:00:30Z");
    private static final Instant MINUTE = Instant.parse("2026-11-30T10:00:00Z");

    private final FakeClock clock = new FakeClock(START);
    private final InMemoryActivityStore store = new InMemoryActivityStore();
    private final AxTask report = task("report");
    private final AxTask export = task("export");

    private ActivityRollup rollup(String node, ActivityStore on) {
        return new ActivityRollup(on, true, node, clock, Duration.ofSeconds(10));
    }

    @Test
    void firstAttemptsCountAsFiresAndEveryOutcomeInItsOwnColumn() {
        ActivityRollup n1 = rollup("n1", store);
        n1.started(report, 1, Duration.ofMillis(5), Duration.ZERO);
        n1.started(report, 1, Duration.ofMillis(7), Duration.ZERO);
        n1.started(report, 2, Duration.ofSeconds(30), Duration.ZERO); // a retry: no fire, its back-off no lateness
        n1.finished(report, InstanceState.SUCCESS, Duration.ofMillis(1));
        n1.finished(report, InstanceState.FAILED, Duration.ofMillis(1));
        n1.finished(report, InstanceState.TIMEOUT, Duration.ofMillis(1));
        n1.deadLettered(report);

        Activity.Bucket now = last(n1.read(null, MINUTE, START, 1));

        assertThat(now.start()).isEqualTo(MINUTE);
        assertThat(List.of(now.fires(), now.successes(), now.failures(), now.timeouts(), now.deadLetters()))
                .containsExactly(2L, 1L, 1L, 1L, 1L);
        assertThat(now.latenessP50Millis()).isEqualTo(5);
        assertThat(now.latenessP99Millis()).isEqualTo(7);
    }

    @Test
    void aFlushWritesTheMinutesThatChangedEachTaskAndAllTasksWithTheirWholeCounts() {
        ActivityRollup n1 = rollup("n1", store);
        n1.started(report, 1, Duration.ZERO, Duration.ZERO);
        n1.started(export, 1, Duration.ZERO, Duration.ZERO);

        assertThat(n1.flush()).as("report, export and all").isEqualTo(3);
        assertThat(n1.flush()).as("nothing changed since").isZero();

        n1.started(report, 1, Duration.ZERO, Duration.ZERO);
        assertThat(n1.flush()).as("report and all, again").isEqualTo(2);

        assertThat(store.find("report", MINUTE, MINUTE.plusSeconds(60)))
                .singleElement()
                .extracting(ActivityRow::fires, ActivityRow::node)
                .containsExactly(2L, "n1");
        assertThat(store.find(ActivityRow.ALL_TASKS, MINUTE, MINUTE.plusSeconds(60)))
                .singleElement()
                .extracting(ActivityRow::fires)
                .isEqualTo(3L);
    }

    @Test
    void aReadAddsUpEveryNodeWithThisNodesFreshestCounts() {
        ActivityRollup n1 = rollup("n1", store);
        ActivityRollup n2 = rollup("n2", store);
        n1.started(report, 1, Duration.ofMillis(10), Duration.ZERO);
        n2.started(report, 1, Duration.ofMillis(2000), Duration.ZERO);
        n2.finished(report, InstanceState.SUCCESS, Duration.ZERO);
        n1.flush();
        n2.flush();
        n1.started(report, 1, Duration.ofMillis(10), Duration.ZERO); // not flushed yet

        Activity seenByN1 = n1.read("report", MINUTE, START, 1);
        Activity seenByN2 = n2.read("report", MINUTE, START, 1);

        assertThat(seenByN1.cluster()).isTrue();
        assertThat(last(seenByN1).fires())
                .as("n1's own three, not its flushed row twice")
                .isEqualTo(3);
        assertThat(last(seenByN1).successes()).isEqualTo(1);
        assertThat(last(seenByN2).fires()).as("n2 sees n1 as n1 last wrote").isEqualTo(2);
        assertThat(last(seenByN1).latenessP99Millis())
                .as("the cluster's percentile, from both nodes' histograms")
                .isBetween(2000L, 2250L);
        assertThat(last(seenByN1).latenessP50Millis()).isEqualTo(10);
    }

    @Test
    void aRestartedNodeAddsToItsEarlierRunsMinuteInsteadOfReplacingIt() {
        ActivityRollup before = rollup("n1", store);
        before.started(report, 1, Duration.ZERO, Duration.ZERO);
        before.flush();
        ActivityRollup after = rollup("n1", store); // same node id, a new process

        after.started(report, 1, Duration.ZERO, Duration.ZERO);
        after.flush();

        assertThat(last(after.read(null, MINUTE, START, 1)).fires()).isEqualTo(2);
    }

    @Test
    void bucketsSpanTheWholeWindowOldestFirstAndEmptyOnesCountZero() {
        ActivityRollup n1 = rollup("n1", store);
        n1.started(report, 1, Duration.ZERO, Duration.ZERO);
        n1.flush();
        clock.advance(Duration.ofMinutes(25));
        n1.started(report, 1, Duration.ZERO, Duration.ZERO);
        n1.started(report, 1, Duration.ZERO, Duration.ZERO);
        n1.flush();

        Instant from = MINUTE.minus(Duration.ofMinutes(10));
        Activity read = n1.read("report", from, clock.instant(), 10);

        assertThat(read.bucket()).isEqualTo(Duration.ofMinutes(10));
        assertThat(read.buckets())
                .extracting(Activity.Bucket::start)
                .containsExactly(
                        from,
                        from.plus(Duration.ofMinutes(10)),
                        from.plus(Duration.ofMinutes(20)),
                        from.plus(Duration.ofMinutes(30)));
        assertThat(read.buckets()).extracting(Activity.Bucket::fires).containsExactly(0L, 1L, 0L, 2L);
        assertThat(read.buckets().get(0).latenessP50Millis()).isNull();
    }

    @Test
    void aFailedFlushIsMadeAgainByTheNextAndLosesNothing() {
        AtomicBoolean down = new AtomicBoolean(true);
        ActivityRollup n1 = rollup("n1", failingWhile(down));
        n1.started(report, 1, Duration.ZERO, Duration.ZERO);

        assertThatThrownBy(n1::flush).hasMessageContaining("store down");
        n1.started(report, 1, Duration.ZERO, Duration.ZERO);
        down.set(false);

        assertThat(n1.flush()).isEqualTo(2);
        assertThat(store.find("report", MINUTE, MINUTE.plusSeconds(60)))
                .singleElement()
                .extracting(ActivityRow::fires)
                .isEqualTo(2L);
    }

    @Test
    void aStoreThatCannotBeReadLeavesThisNodesOwnMinutesAndSaysWhy() {
        AtomicBoolean down = new AtomicBoolean(false);
        ActivityRollup n1 = rollup("n1", failingWhile(down));
        n1.started(report, 1, Duration.ZERO, Duration.ZERO);
        down.set(true);

        Activity read = n1.read(null, MINUTE, START, 1);

        assertThat(read.cluster()).isFalse();
        assertThat(read.unavailable()).contains("store down");
        assertThat(last(read).fires()).isEqualTo(1);
    }

    @Test
    void memoryHoldsTenMinutesAndAMinuteTheStoreNeverTookIsDroppedWithAWarning() {
        AtomicBoolean down = new AtomicBoolean(true);
        ActivityRollup n1 = rollup("n1", failingWhile(down));
        n1.started(report, 1, Duration.ZERO, Duration.ZERO); // 10:00
        for (int m = 1; m <= ActivityRollup.MINUTES_KEPT; m++) {
            clock.advance(Duration.ofMinutes(1));
            n1.started(report, 1, Duration.ZERO, Duration.ZERO);
        }
        down.set(false);

        assertThat(n1.flush()).as("ten minutes of report and of all tasks").isEqualTo(20);
        assertThat(store.find("report", MINUTE, clock.instant()))
                .as("10:00 was dropped before the store came back")
                .extracting(ActivityRow::minute)
                .doesNotContain(MINUTE)
                .hasSize(ActivityRollup.MINUTES_KEPT);
    }

    @Test
    void aLatenessTextOfAnotherVersionAddsNothingToTheChart() {
        store.save(List.of(new ActivityRow(MINUTE, "report", "n9", "w9", 3, 0, 0, 0, 0, "garbage")));
        ActivityRollup n1 = rollup("n1", store);

        Activity.Bucket now = last(n1.read("report", MINUTE, START, 1));

        assertThat(now.fires()).isEqualTo(3);
        assertThat(now.latenessP50Millis()).isNull();
    }

    private static Activity.Bucket last(Activity activity) {
        return activity.buckets().get(activity.buckets().size() - 1);
    }

    /** The test's store, failing every call while {@code down} holds. */
    private ActivityStore failingWhile(AtomicBoolean down) {
        return new ActivityStore() {
            @Override
            public void save(List<ActivityRow> rows) {
                check();
                store.save(rows);
            }

            @Override
            public List<ActivityRow> find(String task, Instant from, Instant to) {
                check();
                return store.find(task, from, to);
            }

            @Override
            public List<ActivityTotals> totals(Instant from, Instant to) {
                check();
                return store.totals(from, to);
            }

            @Override
            public int deleteBefore(Instant before, int limit) {
                check();
                return store.deleteBefore(before, limit);
            }

            private void check() {
                if (down.get()) {
                    throw new IllegalStateException("store down");
                }
            }
        };
    }

    private static AxTask task(String name) {
        return AxTask.builder(name)
                .trigger(IntervalTrigger.fixedRate(Duration.ofMinutes(1), Duration.ZERO))
                .build();
    }
}
