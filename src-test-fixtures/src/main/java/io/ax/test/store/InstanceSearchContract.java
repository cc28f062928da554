package io.ax.test.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.store.InstanceQuery;
import io.ax.core.store.InstanceStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An operator's search ({@link InstanceStore#search}): by task, state and time range, each optional, newest first,
 * page by page. Part of {@link InstanceStoreContract}.
 */
abstract class InstanceSearchContract extends DelayedTaskContract {

    /** report at T0+0..5 s (the one at +2 s DEAD, the one at +4 s SUCCESS), cleanup at T0+1 s and +3 s (+3 s DEAD). */
    private final List<TaskInstance> reports = new ArrayList<>();

    private TaskInstance deadReport;
    private TaskInstance deadCleanup;

    /** Not a {@code @BeforeEach}: a store's own test may empty its tables before each test, after this would run. */
    private void someHistory() {
        reports.clear(); // a store's test may keep one instance for all its tests
        for (int s = 0; s < 6; s++) {
            reports.add(createdAs("report", T0.plusSeconds(s), InstanceState.SCHEDULED));
        }
        deadReport = walk(reports.get(2), InstanceState.DEAD);
        walk(reports.get(4), InstanceState.SUCCESS);
        createdAs("cleanup", T0.plusSeconds(1), InstanceState.SCHEDULED);
        deadCleanup = createdAs("cleanup", T0.plusSeconds(3), InstanceState.DEAD);
    }

    @Test
    void withoutCriteriaEveryInstanceComesNewestFirst() {
        someHistory();
        List<TaskInstance> all = store.search(query(null, null, null, null, 0, 100));

        assertThat(all).hasSize(8);
        assertThat(all).extracting(TaskInstance::scheduledTime).isSortedAccordingTo((a, b) -> b.compareTo(a));
        assertThat(all.get(0).scheduledTime()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void aTaskNameKeepsToThatTask() {
        someHistory();
        assertThat(store.search(query("cleanup", null, null, null, 0, 100)))
                .extracting(TaskInstance::taskName)
                .containsExactly("cleanup", "cleanup");
        assertThat(store.search(query("nobody", null, null, null, 0, 100))).isEmpty();
    }

    @Test
    void aStateFindsTheDeadAcrossTasks() {
        someHistory();
        assertThat(store.search(query(null, InstanceState.DEAD, null, null, 0, 100)))
                .extracting(TaskInstance::id)
                .containsExactly(deadCleanup.id(), deadReport.id());
        assertThat(store.search(query("report", InstanceState.DEAD, null, null, 0, 100)))
                .extracting(TaskInstance::id)
                .containsExactly(deadReport.id());
    }

    @Test
    void aTimeRangeIncludesItsStartAndExcludesItsEnd() {
        someHistory();
        List<TaskInstance> found = store.search(query("report", null, T0.plusSeconds(1), T0.plusSeconds(4), 0, 100));

        assertThat(found)
                .extracting(TaskInstance::scheduledTime)
                .containsExactly(T0.plusSeconds(3), T0.plusSeconds(2), T0.plusSeconds(1));
    }

    @Test
    void anOpenEndedRangeKeepsToItsOneBound() {
        someHistory();
        assertThat(store.search(query(null, null, T0.plusSeconds(4), null, 0, 100)))
                .extracting(TaskInstance::scheduledTime)
                .containsExactly(T0.plusSeconds(5), T0.plusSeconds(4));
        assertThat(store.search(query(null, null, null, T0.plusSeconds(1), 0, 100)))
                .extracting(TaskInstance::scheduledTime)
                .containsExactly(T0);
    }

    @Test
    void pagesFollowOneAnotherWithoutGapOrRepeat() {
        someHistory();
        List<String> paged = new ArrayList<>();
        for (int page = 0; page < 4; page++) {
            paged.addAll(store.search(query(null, null, null, null, page * 3, 3)).stream()
                    .map(TaskInstance::id)
                    .toList());
        }

        assertThat(paged)
                .containsExactlyElementsOf(store.search(query(null, null, null, null, 0, 100)).stream()
                        .map(TaskInstance::id)
                        .toList());
    }

    @Test
    void criteriaCombineAndAPageBeyondTheMatchesIsEmpty() {
        someHistory();
        assertThat(store.search(query("report", InstanceState.SCHEDULED, T0.plusSeconds(3), null, 0, 100)))
                .extracting(TaskInstance::scheduledTime)
                .containsExactly(T0.plusSeconds(5), T0.plusSeconds(3));
        assertThat(store.search(query("report", null, null, null, 6, 10))).isEmpty();
    }

    private static InstanceQuery query(
            String task, InstanceState state, Instant from, Instant to, int offset, int limit) {
        return new InstanceQuery(task, state, from, to, offset, limit);
    }

    private TaskInstance createdAs(String task, Instant at, InstanceState target) {
        TaskInstance created = created(task, at);
        store.create(created, "");
        return walk(created, target);
    }

    /** Moves an instance along the shortest path from where it is to {@code target}; its state afterwards. */
    private TaskInstance walk(TaskInstance instance, InstanceState target) {
        List<InstanceState> path = pathTo(target);
        InstanceState from = state(instance.id());
        for (InstanceState to : path.subList(path.indexOf(from) + 1, path.size())) {
            assertThat(store.transition(move(instance.id(), from, to))).isTrue();
            from = to;
        }
        return store.find(instance.id()).orElseThrow();
    }
}
