package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.ScheduleRequest;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PrefetchTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private final List<AxEngine> engines = new ArrayList<>();

    @AfterEach
    void stop() {
        engines.forEach(AxEngine::stop);
    }

    private AxEngine engine(Duration window, int page, int limit) {
        AxEngine e = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .prefetchWindow(window)
                .prefetchPage(page)
                .prefetchLimit(limit)
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        e.register(AxTask.builder("job").concurrent(true).build());
        engines.add(e);
        return e;
    }

    private List<String> scheduleBeforeStart(AxEngine e, int n, Instant at) {
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            requests.add(ScheduleRequest.of("job").at(at.plusMillis(i % 7)).allowPast());
        }
        return e.scheduleAll(requests);
    }

    @Test
    void aPausedTasksDueExecutionsWaitInTheStoreAndDoNotHideTheRowsBehindThem() {
        AxEngine e = engine(Duration.ofSeconds(60), 20, 1_000);
        e.register(AxTask.builder("held").concurrent(true).build());
        e.start();
        e.pause("held");
        // written by "another process" behind the window's cursor: only the sweep for overdue rows finds them, and
        // the first pages it reads are the paused task's, many times its page size
        Instant past = Instant.now().minusSeconds(60);
        List<ScheduleRequest> paused = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            paused.add(ScheduleRequest.of("held").at(past.plusMillis(i)).allowPast());
        }
        AxEngine other = engine(Duration.ofSeconds(60), 20, 1_000);
        other.register(AxTask.builder("held").concurrent(true).build());
        List<String> heldIds = other.scheduleAll(paused);
        List<String> behind = other.scheduleAll(List.of(
                ScheduleRequest.of("job").at(past.plusSeconds(1)).allowPast(),
                ScheduleRequest.of("job").at(past.plusSeconds(2)).allowPast()));

        await().atMost(BOUND)
                .until(() -> behind.stream()
                        .allMatch(id -> store.find(id).orElseThrow().state() == InstanceState.SUCCESS));
        assertThat(heldIds).allMatch(id -> store.find(id).orElseThrow().state() == InstanceState.SCHEDULED);
        assertThat(e.status().wheelSize())
                .as("the paused task's executions are not held in memory")
                .isLessThan(50);

        e.resume("held");
        await().atMost(BOUND)
                .until(() -> heldIds.stream()
                        .allMatch(id -> store.find(id).orElseThrow().state() == InstanceState.SUCCESS));
    }

    @Test
    void aBacklogLargerThanTheLimitIsLoadedAsTheWheelDrains() {
        AxEngine e = engine(Duration.ofSeconds(60), 7, 25);
        List<String> ids = scheduleBeforeStart(e, 300, Instant.now().minusSeconds(30));

        e.start();

        assertThat(e.status().wheelSize())
                .as("at most the limit, plus one page")
                .isLessThanOrEqualTo(25 + 7);
        await().atMost(BOUND)
                .until(() ->
                        ids.stream().allMatch(id -> store.find(id).orElseThrow().state() == InstanceState.SUCCESS));
        assertThat(executor.runs()).hasSize(300);
    }

    @Test
    void onlyTheWindowIsLoadedAtStartAndTheRestFollowsAsTimePasses() {
        AxEngine writer = engine(Duration.ofMillis(300), 100, 1_000);
        Instant now = Instant.now();
        List<String> soon = scheduleBeforeStart(writer, 5, now.plusMillis(100));
        List<String> later = scheduleBeforeStart(writer, 5, now.plusMillis(1_500));
        List<String> far = scheduleBeforeStart(writer, 5, now.plusSeconds(3_600));

        AxEngine e = engine(Duration.ofMillis(300), 100, 1_000);
        e.start();

        assertThat(e.status().wheelSize())
                .as("only what falls due within the window")
                .isLessThanOrEqualTo(5);
        await().atMost(BOUND)
                .until(() -> later.stream()
                        .allMatch(id -> store.find(id).orElseThrow().state() == InstanceState.SUCCESS));
        assertThat(soon).allMatch(id -> store.find(id).orElseThrow().state() == InstanceState.SUCCESS);
        assertThat(far).allMatch(id -> store.find(id).orElseThrow().state() == InstanceState.SCHEDULED);
        assertThat(store.findByStates(EnumSet.of(InstanceState.SCHEDULED), 100)).hasSize(5);
        assertThat(e.status().wheelSize()).isZero();
    }

    @Test
    void whatAnotherProcessWritesInsideTheWindowIsFoundOnceOverdue() {
        AxEngine running = engine(Duration.ofMillis(400), 100, 1_000);
        running.start();
        AxEngine otherProcess = engine(Duration.ofMillis(400), 100, 1_000); // never started: it only writes

        List<String> ids = scheduleBeforeStart(otherProcess, 3, Instant.now().plusMillis(50));

        assertThat(running.status().wheelSize())
                .as("the running engine was not told")
                .isZero();
        await().atMost(BOUND)
                .until(() ->
                        ids.stream().allMatch(id -> store.find(id).orElseThrow().state() == InstanceState.SUCCESS));
    }
}
