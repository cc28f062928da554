package io.ax.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxException;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.engine.insight.ActivityRollup;
import io.ax.core.store.ActivityRow;
import io.ax.core.store.ActivityStore;
import io.ax.core.store.ActivityTotals;
import io.ax.core.store.InMemoryActivityStore;
import io.ax.test.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Where the tasks pages' success rates come from: the cluster's last day from the rollup, in one read for all tasks,
 * through the engine's read (this node's freshest counts in it) for one task; this node's counts, said so, when the
 * store keeps no rollup or does not answer.
 */
class TaskOutcomesTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:30:15Z");
    private static final Instant MINUTE = Instant.parse("2026-12-01T10:30:00Z");

    private final FakeClock clock = new FakeClock(NOW);
    private final TaskActivity thisNode = new TaskActivity();
    private final InMemoryActivityStore rollup = new InMemoryActivityStore();
    private final AtomicInteger reads = new AtomicInteger();
    private boolean down;

    /** The rollup, counting its reads, failing while {@link #down}. */
    private final ActivityStore store = new ActivityStore() {
        @Override
        public void save(List<ActivityRow> rows) {
            rollup.save(rows);
        }

        @Override
        public List<ActivityRow> find(String task, Instant from, Instant to) {
            answerOrFail();
            return rollup.find(task, from, to);
        }

        @Override
        public List<ActivityTotals> totals(Instant from, Instant to) {
            answerOrFail();
            return rollup.totals(from, to);
        }

        @Override
        public int deleteBefore(Instant before, int limit) {
            return rollup.deleteBefore(before, limit);
        }

        private void answerOrFail() {
            reads.incrementAndGet();
            if (down) {
                throw new AxException("Cannot read the activity rollup: connection refused");
            }
        }
    };

    /** This node's share of the rollup, as the engine keeps it: what it counted is read before it is written. */
    private final ActivityRollup engineRollup = new ActivityRollup(store, true, "n0", clock, Duration.ofHours(1));

    private final TaskOutcomes outcomes = new TaskOutcomes(
            Optional.of(store),
            task -> engineRollup.read(task, MINUTE.minus(Duration.ofMinutes(1439)), MINUTE.plusSeconds(60), 1440),
            thisNode,
            clock);

    @Test
    void everyTasksCountsAreTheClustersOverTheLastDayInOneRead() {
        rollup.save(List.of(
                row(MINUTE, "report", "n1", 5, 1, 1, 1),
                row(MINUTE.minus(Duration.ofMinutes(1439)), "report", "n2", 3, 2, 0, 0),
                row(MINUTE.minus(Duration.ofMinutes(1440)), "report", "n2", 100, 100, 0, 100),
                row(MINUTE, "export", "n2", 7, 0, 0, 0)));
        ranHere("report", InstanceState.FAILED);

        TaskOutcomes.Read read = outcomes.all();

        assertThat(reads).as("one read for every task").hasValue(1);
        assertThat(read.cluster()).isTrue();
        assertThat(read.unavailable()).isNull();
        assertThat(read.of("report"))
                .as("the last 1,440 minutes, the current one included; timeouts are failures")
                .isEqualTo(new TaskActivity.Counts(8, 4, 1));
        assertThat(read.of("export")).isEqualTo(new TaskActivity.Counts(7, 0, 0));
        assertThat(read.of("idle")).isEqualTo(TaskActivity.Counts.NONE);
    }

    @Test
    void oneTasksCountsAreReadWithThisNodesFreshestCounts() {
        rollup.save(List.of(row(MINUTE, "report", "n1", 5, 1, 1, 1), row(MINUTE, "export", "n2", 7, 0, 0, 0)));
        engineRollup.finished(task("report"), InstanceState.SUCCESS, Duration.ofMillis(3)); // not written yet

        TaskOutcomes.Read one = outcomes.of("report");
        TaskOutcomes.Read all = outcomes.all();

        assertThat(reads).as("one read each").hasValue(2);
        assertThat(one.cluster()).isTrue();
        assertThat(one.of("report")).isEqualTo(new TaskActivity.Counts(6, 2, 1));
        assertThat(all.of("report"))
                .as("the list has what the nodes wrote")
                .isEqualTo(new TaskActivity.Counts(5, 2, 1));
    }

    @Test
    void aStoreThatDoesNotAnswerLeavesThisNodesCountsAndSaysWhy() {
        rollup.save(List.of(row(MINUTE, "report", "n2", 50, 50, 0, 0)));
        ranHere("report", InstanceState.SUCCESS);
        ranHere("report", InstanceState.TIMEOUT);
        down = true;

        for (TaskOutcomes.Read read : List.of(outcomes.all(), outcomes.of("report"))) {
            assertThat(read.cluster()).isFalse();
            assertThat(read.unavailable()).contains("connection refused");
            assertThat(read.of("report")).isEqualTo(new TaskActivity.Counts(1, 1, 0));
        }
    }

    @Test
    void aStoreWithoutARollupLeavesThisNodesCounts() {
        TaskOutcomes withoutRollup = new TaskOutcomes(
                Optional.empty(),
                task -> {
                    throw new AssertionError("a store without a rollup is not read");
                },
                thisNode,
                clock);
        ranHere("report", InstanceState.SUCCESS);
        thisNode.deadLettered(task("report"));

        for (TaskOutcomes.Read read : List.of(withoutRollup.all(), withoutRollup.of("report"))) {
            assertThat(read.cluster()).isFalse();
            assertThat(read.unavailable()).as("nothing failed").isNull();
            assertThat(read.of("report")).isEqualTo(new TaskActivity.Counts(1, 0, 1));
        }
    }

    private void ranHere(String task, InstanceState outcome) {
        thisNode.finished(task(task), outcome, Duration.ofMillis(3));
    }

    private static AxTask task(String name) {
        return AxTask.builder(name).target("test." + name).build();
    }

    private static ActivityRow row(
            Instant minute, String task, String node, long successes, long failures, long timeouts, long dead) {
        return new ActivityRow(minute, task, node, "w-" + node, 0, successes, failures, timeouts, dead, "");
    }
}
