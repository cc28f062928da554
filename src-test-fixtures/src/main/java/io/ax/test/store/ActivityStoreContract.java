package io.ax.test.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.store.ActivityRow;
import io.ax.core.store.ActivityStore;
import io.ax.core.store.ActivityTotals;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ActivityStore} promises: a saved row replaces the row of the same minute, task, node and writer;
 * a read finds every node's and writer's rows of one task in a range of minutes, the lateness text as it was saved;
 * the totals of a range of minutes add every task's rows up, one per task; old rows go in batches, oldest first. Each store's test extends it in a few lines, with an empty store for each
 * test.
 */
public abstract class ActivityStoreContract {

    /** The minutes of the tests: far in the past, so that no engine's rows are near them. */
    private static final Instant T0 = Instant.parse("2001-02-03T04:05:00Z");

    /** The store under test, empty when a test begins. */
    protected abstract ActivityStore activity();

    private final String run = UUID.randomUUID().toString().substring(0, 8);

    private String task(String name) {
        return name + "-" + run;
    }

    private static ActivityRow row(Instant minute, String task, String node, String writer, long fires) {
        return new ActivityRow(minute, task, node, writer, fires, fires, 1, 2, 3, fires == 0 ? "" : "0:" + fires);
    }

    @Test
    void aSavedRowIsReadBackAsItWasSaved() {
        String task = task("report");
        String lateness = "3:1,17:4,231:2";
        ActivityRow saved = new ActivityRow(T0, task, "n1", "w1", 7, 5, 1, 1, 1, lateness);

        activity().save(List.of(saved));

        assertThat(activity().find(task, T0, T0.plusSeconds(60))).containsExactly(saved);
    }

    @Test
    void savingARowAgainReplacesIt() {
        String task = task("report");
        activity().save(List.of(row(T0, task, "n1", "w1", 1)));
        activity().save(List.of(row(T0, task, "n1", "w1", 9)));
        activity().save(List.of(row(T0, task, "n1", "w1", 9))); // a write repeated after a doubtful commit

        assertThat(activity().find(task, T0, T0.plusSeconds(60)))
                .singleElement()
                .extracting(ActivityRow::fires)
                .isEqualTo(9L);
    }

    @Test
    void everyNodeAndWriterKeepsRowsOfItsOwn() {
        String task = task("report");
        activity().save(List.of(row(T0, task, "n1", "w1", 1), row(T0, task, "n2", "w2", 2)));
        activity().save(List.of(row(T0, task, "n1", "w3", 4))); // n1 restarted

        assertThat(activity().find(task, T0, T0.plusSeconds(60)))
                .extracting(ActivityRow::fires)
                .containsExactlyInAnyOrder(1L, 2L, 4L);
    }

    @Test
    void aReadFindsOneTaskInItsRangeOfMinutes() {
        String task = task("report");
        String other = task("other");
        List<ActivityRow> rows = new ArrayList<>();
        for (int m = 0; m < 5; m++) {
            rows.add(row(T0.plus(Duration.ofMinutes(m)), task, "n1", "w1", m));
            rows.add(row(T0.plus(Duration.ofMinutes(m)), other, "n1", "w1", 100 + m));
        }
        rows.add(row(T0.plus(Duration.ofMinutes(2)), ActivityRow.ALL_TASKS, "n1", "w1", 50));
        activity().save(rows);

        assertThat(activity().find(task, T0.plus(Duration.ofMinutes(1)), T0.plus(Duration.ofMinutes(4))))
                .as("from inclusive, to exclusive")
                .extracting(ActivityRow::fires)
                .containsExactlyInAnyOrder(1L, 2L, 3L);
        assertThat(activity().find(task, T0.plus(Duration.ofMinutes(4)), T0.plus(Duration.ofMinutes(4))))
                .isEmpty();
    }

    @Test
    void totalsAddUpEveryNodesAndWritersRowsOfEachTaskInARangeOfMinutes() {
        String report = task("report");
        String other = task("other");
        Instant from = T0.plus(Duration.ofMinutes(10));
        Instant to = from.plus(Duration.ofMinutes(2));
        long billions = 3_000_000_000L; // sums beyond an int
        activity()
                .save(List.of(
                        new ActivityRow(from, report, "n1", "w1", billions, billions, 1, 0, 0, "0:1"),
                        new ActivityRow(from, report, "n2", "w2", billions, 1, 1, 1, 1, "0:1"),
                        new ActivityRow(from.plusSeconds(60), report, "n1", "w3", 2, 2, 0, 0, 0, "0:2"), // n1 restarted
                        new ActivityRow(from, other, "n1", "w1", 7, 0, 7, 0, 7, "0:7"),
                        new ActivityRow(from, ActivityRow.ALL_TASKS, "n1", "w1", 9, 4, 8, 0, 7, "0:9"),
                        new ActivityRow(from.minusSeconds(60), report, "n1", "w1", 500, 500, 0, 0, 0, "0:500"),
                        new ActivityRow(to, report, "n1", "w1", 700, 700, 0, 0, 0, "0:700")));

        assertThat(activity().totals(from, to))
                .as("from inclusive, to exclusive; every node and writer added up, one per task")
                .containsExactlyInAnyOrder(
                        new ActivityTotals(report, 2 * billions + 2, billions + 3, 2, 1, 1),
                        new ActivityTotals(other, 7, 0, 7, 0, 7),
                        new ActivityTotals(ActivityRow.ALL_TASKS, 9, 4, 8, 0, 7));
    }

    @Test
    void minutesWithoutRowsHaveNoTotals() {
        activity().save(List.of(row(T0, task("report"), "n1", "w1", 3)));

        assertThat(activity().totals(T0.plusSeconds(60), T0.plus(Duration.ofDays(1))))
                .isEmpty();
        assertThat(activity().totals(T0, T0)).as("an empty range").isEmpty();
    }

    @Test
    void theLongestLatenessTextIsKept() {
        String task = task("report");
        StringBuilder text = new StringBuilder();
        for (int bin = 0; text.length() < ActivityRow.MAX_LATENESS_CHARS - 20; bin++) {
            text.append(bin == 0 ? "" : ",").append(bin).append(":").append(1_000_000_000 + bin);
        }
        ActivityRow saved = new ActivityRow(T0, task, "n1", "w1", 1, 0, 0, 0, 0, text.toString());

        activity().save(List.of(saved));

        assertThat(activity().find(task, T0, T0.plusSeconds(60)))
                .singleElement()
                .extracting(ActivityRow::lateness)
                .isEqualTo(text.toString());
    }

    @Test
    void oldRowsAreDeletedInBatchesOldestFirst() {
        Instant old = T0.minus(Duration.ofDays(3650));
        String task = task("old");
        List<ActivityRow> rows = new ArrayList<>();
        for (int m = 0; m < 5; m++) {
            rows.add(row(old.plus(Duration.ofMinutes(4 - m)), task, "n1", "w1", 4 - m)); // saved newest first
        }
        activity().save(rows);
        Instant before = old.plus(Duration.ofMinutes(3));

        int first = activity().deleteBefore(before, 2);
        int second = activity().deleteBefore(before, 2);

        int third = activity().deleteBefore(before, 2);

        assertThat(List.of(first, second, third)).containsExactly(2, 1, 0);
        assertThat(activity().find(task, old, old.plus(Duration.ofMinutes(5))))
                .extracting(ActivityRow::fires)
                .as("the minutes before, and only those, deleted")
                .containsExactlyInAnyOrder(3L, 4L);
    }
}
