package io.ax.test.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.ax.core.AttemptError;
import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.DuplicateInstanceException;
import io.ax.core.IllegalTransitionException;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.InstanceStore;
import io.ax.core.store.NewFire;
import io.ax.core.store.StoredTask;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link InstanceStore} must have. A store's test extends this class and supplies a fresh, empty
 * store ({@link #newStore()}); nothing else. The suite's cases on keys, payloads, due-time paging and rescheduling
 * are inherited from {@link DelayedTaskContract}, those on deleting old history from {@link RetentionContract}, those
 * on the partitions of rows and the reads by partition from {@link PartitionContract}, those on writes fenced by a
 * partition's epoch from {@link PartitionFenceContract}.
 */
public abstract class InstanceStoreContract extends PartitionFenceContract {

    @Test
    void createdInstanceIsFoundWithItsCreationAudited() {
        TaskInstance created = created("report", T0);
        store.create(created, "fire time");
        assertThat(store.find(created.id())).contains(created);
        assertThat(store.auditTrail(created.id())).singleElement().satisfies(e -> {
            assertThat(e.from()).isNull();
            assertThat(e.to()).isEqualTo(InstanceState.CREATED);
            assertThat(e.reason()).isEqualTo("fire time");
        });
    }

    @Test
    void secondInstanceForTheSameTaskAndTimeIsRejected() {
        store.create(created("report", T0), "");
        assertThatThrownBy(() -> store.create(created("report", T0), ""))
                .isInstanceOf(DuplicateInstanceException.class)
                .hasMessageContaining("report")
                .hasMessageContaining(T0.toString());
        store.create(created("report", T0.plusSeconds(1)), "");
        store.create(created("other", T0), "");
    }

    @Test
    void onlyCreatedInstancesCanBeCreated() {
        TaskInstance running = created("report", T0).with(InstanceState.RUNNING, 1, "n1", T0);
        assertThatThrownBy(() -> store.create(running, "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyArrowOfTheStateMachineCanBeWalkedAndIsAudited() {
        for (InstanceState from : InstanceState.values()) {
            for (InstanceState to : from.successors()) {
                TaskInstance i = created("walk-" + from + "-" + to, T0);
                store.create(i, "");
                List<InstanceState> path = pathTo(from);
                InstanceState current = InstanceState.CREATED;
                for (InstanceState step : path) {
                    assertThat(store.transition(move(i.id(), current, step))).isTrue();
                    current = step;
                }
                assertThat(store.transition(move(i.id(), from, to)))
                        .as(from + " -> " + to)
                        .isTrue();
                assertThat(state(i.id())).isEqualTo(to);
                List<AuditEntry> trail = store.auditTrail(i.id());
                assertThat(trail).hasSize(path.size() + 2);
                assertThat(trail.get(trail.size() - 1).from()).isEqualTo(from);
                assertThat(trail.get(trail.size() - 1).to()).isEqualTo(to);
            }
        }
    }

    @Test
    void transitionFromAnotherStateChangesNothing() {
        TaskInstance i = created("report", T0);
        store.create(i, "");
        store.transition(move(i.id(), InstanceState.CREATED, InstanceState.SCHEDULED));
        assertThat(store.transition(move(i.id(), InstanceState.DISPATCHED, InstanceState.RUNNING)))
                .isFalse();
        assertThat(state(i.id())).isEqualTo(InstanceState.SCHEDULED);
        assertThat(store.auditTrail(i.id())).hasSize(2);
    }

    @Test
    void transitionOfAnUnknownInstanceIsNotApplied() {
        assertThat(store.transition(move("nope", InstanceState.CREATED, InstanceState.SCHEDULED)))
                .isFalse();
    }

    @Test
    void illegalArrowsCannotEvenBeRequested() {
        assertThatThrownBy(() -> move("x", InstanceState.SUCCESS, InstanceState.RUNNING))
                .isInstanceOf(IllegalTransitionException.class)
                .hasMessageContaining("SUCCESS -> RUNNING");
        assertThatThrownBy(() -> move("x", InstanceState.SCHEDULED, InstanceState.SUCCESS))
                .isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void ofTwoRacingWritersExactlyOneWins() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 200; round++) {
                TaskInstance i = created("race", T0.plusSeconds(round));
                store.create(i, "");
                store.transition(move(i.id(), InstanceState.CREATED, InstanceState.SCHEDULED));
                CountDownLatch start = new CountDownLatch(1);
                List<Callable<Boolean>> writers = List.of(
                        () -> {
                            start.await();
                            return store.transition(move(i.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED));
                        },
                        () -> {
                            start.await();
                            return store.transition(move(i.id(), InstanceState.SCHEDULED, InstanceState.CANCELLED));
                        });
                List<Future<Boolean>> results = new ArrayList<>();
                for (Callable<Boolean> w : writers) {
                    results.add(pool.submit(w));
                }
                start.countDown();
                int wins = 0;
                for (Future<Boolean> r : results) {
                    wins += r.get(10, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(wins).as("round " + round).isEqualTo(1);
                assertThat(store.auditTrail(i.id())).hasSize(3);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLateEndOfAnAttemptTakenOverDoesNotEndTheNextAttempt() {
        TaskInstance i = created("late-end", T0);
        store.create(i, "");
        store.transition(move(i.id(), InstanceState.CREATED, InstanceState.SCHEDULED));
        assertThat(store.transition(attempt(i, 1, InstanceState.SCHEDULED, InstanceState.DISPATCHED)
                        .assignedTo("n1", 0)))
                .isTrue();
        assertThat(store.transition(attempt(i, 1, InstanceState.DISPATCHED, InstanceState.RUNNING)
                        .ownedBy("n1")))
                .isTrue();
        // n1 taken for dead: its attempt 1 is taken over and retried, in one group (a chain of changes to one row
        // that goes on to the next attempt); n1 (back, or restarted) runs attempt 2
        assertThat(store.transitionAll(List.of(
                        attempt(i, 1, InstanceState.RUNNING, InstanceState.FAILED)
                                .takenFrom("n1", null, 0),
                        attempt(i, 1, InstanceState.FAILED, InstanceState.RETRYING),
                        attempt(i, 2, InstanceState.RETRYING, InstanceState.DISPATCHED)
                                .assignedTo("n1", 0))))
                .containsExactly(true, true, true);
        assertThat(store.transition(attempt(i, 2, InstanceState.DISPATCHED, InstanceState.RUNNING)
                        .ownedBy("n1")))
                .isTrue();

        assertThat(store.transition(attempt(i, 1, InstanceState.RUNNING, InstanceState.SUCCESS)
                        .ownedBy("n1")))
                .as("attempt 1's end, written late")
                .isFalse();
        assertThat(store.transitionAll(List.of(attempt(i, 1, InstanceState.RUNNING, InstanceState.FAILED)
                        .ownedBy("n1"))))
                .as("in a group too")
                .containsExactly(false);
        assertThat(store.find(i.id()).orElseThrow())
                .extracting(TaskInstance::state, TaskInstance::attempt)
                .containsExactly(InstanceState.RUNNING, 2);
        assertThat(store.transition(attempt(i, 2, InstanceState.RUNNING, InstanceState.SUCCESS)
                        .ownedBy("n1")))
                .as("attempt 2's end")
                .isTrue();
    }

    private static Transition attempt(TaskInstance i, int attempt, InstanceState from, InstanceState to) {
        return new Transition(i.id(), from, to, attempt, "n1", T0, from + " to " + to + " of attempt " + attempt);
    }

    @Test
    void batchTransitionsReportEachOutcome() {
        TaskInstance a = created("a", T0);
        TaskInstance b = created("b", T0);
        store.create(a, "");
        store.create(b, "");
        boolean[] applied = store.transitionAll(List.of(
                move(a.id(), InstanceState.CREATED, InstanceState.SCHEDULED),
                move(b.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED)));
        assertThat(applied).containsExactly(true, false);
    }

    @Test
    void aBatchMayMoveOneInstanceSeveralTimesInOrder() {
        TaskInstance a = created("a", T0);
        TaskInstance b = created("b", T0);
        store.create(a, "");
        store.create(b, "");
        boolean[] applied = store.transitionAll(List.of(
                move(a.id(), InstanceState.CREATED, InstanceState.SCHEDULED),
                move(b.id(), InstanceState.CREATED, InstanceState.SCHEDULED),
                move(a.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED),
                move(a.id(), InstanceState.DISPATCHED, InstanceState.RUNNING),
                move(b.id(), InstanceState.DISPATCHED, InstanceState.RUNNING)));
        assertThat(applied).containsExactly(true, true, true, true, false);
        assertThat(state(a.id())).isEqualTo(InstanceState.RUNNING);
        assertThat(state(b.id())).isEqualTo(InstanceState.SCHEDULED);
        assertThat(trail(a.id()))
                .containsExactly(
                        InstanceState.CREATED,
                        InstanceState.SCHEDULED,
                        InstanceState.DISPATCHED,
                        InstanceState.RUNNING);
    }

    @Test
    void aBatchAppliesChangesOneAfterTheOtherEvenWhenAnEarlierOneFails() {
        TaskInstance a = created("a", T0);
        store.create(a, "");
        store.transition(move(a.id(), InstanceState.CREATED, InstanceState.SCHEDULED));
        boolean[] applied = store.transitionAll(List.of(
                move(a.id(), InstanceState.CREATED, InstanceState.SCHEDULED),
                move(a.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED),
                move(a.id(), InstanceState.DISPATCHED, InstanceState.RUNNING),
                move(a.id(), InstanceState.SCHEDULED, InstanceState.CANCELLED),
                move(a.id(), InstanceState.RUNNING, InstanceState.SUCCESS)));
        assertThat(applied).containsExactly(false, true, true, false, true);
        assertThat(state(a.id())).isEqualTo(InstanceState.SUCCESS);
        assertThat(trail(a.id()))
                .containsExactly(
                        InstanceState.CREATED,
                        InstanceState.SCHEDULED,
                        InstanceState.DISPATCHED,
                        InstanceState.RUNNING,
                        InstanceState.SUCCESS);
    }

    @Test
    void takeoversAreCountedForManyInstancesAtOnceSinceTheirLastReplay() {
        TaskInstance twice = scheduled("takeovers-a");
        TaskInstance replayed = scheduled("takeovers-b");
        TaskInstance failedOnly = scheduled("takeovers-c");
        // a takeover, then another: attempts 1 and 2 ended with their node
        step(twice.id(), InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "claimed");
        step(twice.id(), InstanceState.RUNNING, InstanceState.FAILED, 1, AuditEntry.TAKEOVER + "node n2 is gone");
        step(twice.id(), InstanceState.FAILED, InstanceState.RETRYING, 1, "attempt 2 now");
        step(twice.id(), InstanceState.RETRYING, InstanceState.RUNNING, 2, "claimed");
        step(twice.id(), InstanceState.RUNNING, InstanceState.FAILED, 2, AuditEntry.TAKEOVER + "node n3 is gone");
        // a takeover, DEAD, replayed by an operator: its count starts again, and one more takeover follows
        step(replayed.id(), InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "claimed");
        step(replayed.id(), InstanceState.RUNNING, InstanceState.FAILED, 1, AuditEntry.TAKEOVER + "node n2 is gone");
        step(replayed.id(), InstanceState.FAILED, InstanceState.DEAD, 1, "takeovers used up");
        step(replayed.id(), InstanceState.DEAD, InstanceState.RETRYING, 0, "replayed by operator");
        step(replayed.id(), InstanceState.RETRYING, InstanceState.RUNNING, 1, "claimed");
        step(replayed.id(), InstanceState.RUNNING, InstanceState.FAILED, 1, AuditEntry.TAKEOVER + "node n3 is gone");
        // a failure of its handler that mentions a takeover is none
        step(failedOnly.id(), InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "claimed");
        step(
                failedOnly.id(),
                InstanceState.RUNNING,
                InstanceState.FAILED,
                1,
                "java.lang.IllegalStateException: " + AuditEntry.TAKEOVER);

        assertThat(store.takeovers(List.of(twice.id(), replayed.id(), failedOnly.id(), "unknown")))
                .isEqualTo(Map.of(twice.id(), 2, replayed.id(), 1));
        assertThat(AuditEntry.takeoversSinceReplay(store.auditTrail(twice.id())))
                .isEqualTo(2);
        assertThat(store.takeovers(List.of())).isEmpty();
    }

    private TaskInstance scheduled(String task) {
        TaskInstance i = created(task, T0);
        store.create(i, "");
        store.transition(move(i.id(), InstanceState.CREATED, InstanceState.SCHEDULED));
        return i;
    }

    private void step(String id, InstanceState from, InstanceState to, int attempt, String reason) {
        assertThat(store.transition(new Transition(id, from, to, attempt, "n1", T0, reason)))
                .as(from + " -> " + to)
                .isTrue();
    }

    @Test
    void findByTaskReturnsNewestFirst() {
        for (int s = 0; s < 5; s++) {
            store.create(created("report", T0.plusSeconds(s)), "");
        }
        store.create(created("other", T0.plusSeconds(10)), "");
        assertThat(store.findByTask("report", 3))
                .extracting(TaskInstance::scheduledTime)
                .containsExactly(T0.plusSeconds(4), T0.plusSeconds(3), T0.plusSeconds(2));
    }

    @Test
    void deadLettersAreKeptNewestFirst() {
        for (int n = 0; n < 3; n++) {
            store.saveDeadLetter(new DeadLetter(
                    "id-" + n,
                    "doomed",
                    T0.plusSeconds(n),
                    Map.of("k", "v"),
                    List.of(new AttemptError(1, InstanceState.FAILED, "boom " + n, T0)),
                    "java.lang.IllegalStateException: boom",
                    T0.plusSeconds(n)));
        }
        assertThat(store.deadLetterCount()).isEqualTo(3);
        assertThat(store.deadLetters(0, 2)).extracting(DeadLetter::instanceId).containsExactly("id-2", "id-1");
        assertThat(store.deadLetters(2, 10)).singleElement().satisfies(d -> {
            assertThat(d.params()).containsEntry("k", "v");
            assertThat(d.attempts())
                    .singleElement()
                    .extracting(AttemptError::error)
                    .isEqualTo("boom 0");
            assertThat(d.lastStackTrace()).contains("IllegalStateException");
        });
    }

    @Test
    void aDeadLetterIsFoundByItsInstance() {
        store.saveDeadLetter(deadLetter("id-1", "first death", T0));
        store.saveDeadLetter(deadLetter("id-2", "other", T0.plusSeconds(1)));

        assertThat(store.deadLetter("id-1"))
                .hasValueSatisfying(d -> assertThat(d.attempts().get(0).error()).isEqualTo("first death"));
        assertThat(store.deadLetter("id-3")).isEmpty();
        store.deleteDeadLetter("id-1");
        assertThat(store.deadLetter("id-1")).isEmpty();
    }

    @Test
    void aReplayedDeadLetterIsRemovedAndASecondDeathReplacesTheFirst() {
        store.saveDeadLetter(deadLetter("id-1", "first death", T0));
        store.saveDeadLetter(deadLetter("id-2", "other", T0.plusSeconds(1)));
        assertThat(store.deleteDeadLetter("id-1")).isTrue();
        assertThat(store.deleteDeadLetter("id-1")).isFalse();
        assertThat(store.deadLetters(0, 10)).extracting(DeadLetter::instanceId).containsExactly("id-2");
        store.saveDeadLetter(deadLetter("id-2", "second death", T0.plusSeconds(2)));
        assertThat(store.deadLetterCount()).isEqualTo(1);
        assertThat(store.deadLetters(0, 10))
                .singleElement()
                .satisfies(d -> assertThat(d.attempts().get(0).error()).isEqualTo("second death"));
    }

    @Test
    void scheduleWritesInstancesStraightIntoScheduledWithBothAuditRows() {
        store.saveTask("report", "every hour", T0);
        TaskInstance a = scheduled("report", T0.plusSeconds(60));
        TaskInstance b = onDemand("report", T0.plusSeconds(120));
        boolean[] written = store.schedule(List.of(new NewFire(a, "fire time"), new NewFire(b, "on demand")));
        assertThat(written).containsExactly(true, true);
        assertThat(state(a.id())).isEqualTo(InstanceState.SCHEDULED);
        assertThat(store.auditTrail(a.id()))
                .extracting(AuditEntry::from, AuditEntry::to)
                .containsExactly(
                        tuple(null, InstanceState.CREATED), tuple(InstanceState.CREATED, InstanceState.SCHEDULED));
        assertThat(store.auditTrail(a.id()).get(0).reason()).isEqualTo("fire time");
        assertThat(state(b.id())).isEqualTo(InstanceState.SCHEDULED);
        // only the series fire is the task's next fire; a run outside the series leaves it alone
        assertThat(store.findTask("report").orElseThrow().nextFireTime()).isEqualTo(T0.plusSeconds(60));
    }

    @Test
    void scheduleSkipsDuplicatesAndWritesTheRest() {
        TaskInstance first = scheduled("report", T0);
        store.schedule(List.of(new NewFire(first, "")));
        TaskInstance again = scheduled("report", T0);
        TaskInstance other = scheduled("report", T0.plusSeconds(1));
        boolean[] written = store.schedule(List.of(new NewFire(again, ""), new NewFire(other, "")));
        assertThat(written).containsExactly(false, true);
        assertThat(store.find(again.id())).isEmpty();
        assertThat(store.auditTrail(again.id())).isEmpty();
        assertThat(store.find(other.id())).isPresent();
    }

    @Test
    void theTasksWhoseInstanceWithAGivenKeyWaitsAreFoundTogether() {
        TaskInstance waiting = scheduled("a", T0);
        TaskInstance otherTask = scheduled("b", T0);
        TaskInstance started = scheduled("c", T0.plusSeconds(1));
        store.schedule(List.of(new NewFire(waiting, ""), new NewFire(otherTask, ""), new NewFire(started, "")));
        store.transition(
                new Transition(started.id(), InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T0, "claim"));
        Map<String, String> asked = new java.util.HashMap<>();
        asked.put("a", waiting.key());
        asked.put("b", TaskInstance.fireKey(T0.plusSeconds(5))); // not b's key, though a's and b's rows share theirs
        asked.put("c", started.key());
        asked.put("d", waiting.key()); // no such task

        assertThat(store.scheduledWithKey(asked)).containsExactly("a");
        assertThat(store.scheduledWithKey(Map.of())).isEmpty();
    }

    @Test
    void scheduleWritesABigBatch() {
        List<NewFire> fires = new ArrayList<>();
        for (int n = 0; n < 2_500; n++) {
            String task = "bulk-" + (n % 10);
            Instant at = T0.plusSeconds(n);
            fires.add(new NewFire(n % 10 == 0 ? scheduled(task, at) : onDemand(task, at), ""));
        }
        boolean[] written = store.schedule(fires);
        for (boolean w : written) {
            assertThat(w).isTrue();
        }
        assertThat(store.findByStates(Set.of(InstanceState.SCHEDULED), 10_000)).hasSize(2_500);
    }

    @Test
    void findByStatesReturnsOldestFirst() {
        TaskInstance late = onDemand("a", T0.plusSeconds(20));
        TaskInstance early = onDemand("b", T0.plusSeconds(10));
        TaskInstance running = onDemand("c", T0);
        store.schedule(List.of(new NewFire(late, ""), new NewFire(early, ""), new NewFire(running, "")));
        store.transition(move(running.id(), InstanceState.SCHEDULED, InstanceState.DISPATCHED));
        assertThat(store.findByStates(Set.of(InstanceState.SCHEDULED), 10))
                .extracting(TaskInstance::id)
                .containsExactly(early.id(), late.id());
        assertThat(store.findByStates(Set.of(InstanceState.SCHEDULED, InstanceState.DISPATCHED), 2))
                .extracting(TaskInstance::id)
                .containsExactly(running.id(), early.id());
    }

    @Test
    void taskRowsKeepTheirNextFireTimeAndPausedFlagAcrossSaves() {
        assertThat(store.findTask("report")).isEmpty();
        assertThat(store.setPaused("report", true, T0)).isFalse();
        store.saveTask("report", "every hour", T0);
        store.schedule(List.of(new NewFire(scheduled("report", T0.plusSeconds(3600)), "")));
        assertThat(store.setPaused("report", true, T0.plusSeconds(1))).isTrue();
        store.saveTask("report", "every two hours", T0.plusSeconds(2));
        StoredTask task = store.findTask("report").orElseThrow();
        assertThat(task.trigger()).isEqualTo("every two hours");
        assertThat(task.nextFireTime()).isEqualTo(T0.plusSeconds(3600));
        assertThat(task.paused()).isTrue();
        assertThat(task.updatedAt()).isEqualTo(T0.plusSeconds(2));
        store.saveTask("another", "on demand", T0);
        assertThat(store.findTasks()).extracting(StoredTask::name).containsExactly("another", "report");
        assertThat(store.findTask("another").orElseThrow().nextFireTime()).isNull();
        assertThat(store.pausedTasks()).as("the paused ones alone").containsExactly("report");
        assertThat(store.setPaused("report", false, T0.plusSeconds(3))).isTrue();
        assertThat(store.pausedTasks()).isEmpty();
    }

    @Test
    void manyTasksAreSavedAtOnceKeepingWhatTheStoreKnows() {
        store.saveTask("known", "old trigger", T0);
        store.setPaused("known", true, T0);
        Map<String, String> triggers = new java.util.TreeMap<>();
        triggers.put("known", "new trigger");
        for (int n = 0; n < 1_200; n++) {
            triggers.put("new-" + n, "every " + n + "s");
        }
        store.saveTasks(triggers, T0.plusSeconds(1));
        assertThat(store.findTasks()).hasSize(1_201);
        StoredTask known = store.findTask("known").orElseThrow();
        assertThat(known.trigger()).isEqualTo("new trigger");
        assertThat(known.paused()).isTrue();
        assertThat(store.findTask("new-7").orElseThrow().trigger()).isEqualTo("every 7s");
    }

    @Test
    void instantsKeepMicrosecondPrecision() {
        Instant precise = T0.plusNanos(123_456_000);
        TaskInstance i = onDemand("precise", precise);
        store.schedule(List.of(new NewFire(i, "")));
        assertThat(store.find(i.id()).orElseThrow().scheduledTime()).isEqualTo(precise);
        assertThat(store.findByStates(Set.of(InstanceState.SCHEDULED), 1).get(0).scheduledTime())
                .isEqualTo(precise);
    }

    @Test
    void longReasonsAndStackTracesAreKept() {
        TaskInstance i = created("talkative", T0);
        store.create(i, "");
        String reason = "x".repeat(1_900);
        store.transition(new Transition(i.id(), InstanceState.CREATED, InstanceState.SCHEDULED, 0, "n1", T0, reason));
        assertThat(store.auditTrail(i.id()).get(1).reason()).isEqualTo(reason);
        String trace = "at frame\n".repeat(5_000);
        store.saveDeadLetter(new DeadLetter(i.id(), "talkative", T0, Map.of(), List.of(), trace, T0));
        assertThat(store.deadLetters(0, 1).get(0).lastStackTrace()).isEqualTo(trace);
    }

    private static DeadLetter deadLetter(String id, String error, Instant died) {
        return new DeadLetter(
                id,
                "doomed",
                T0,
                Map.of(),
                List.of(new AttemptError(1, InstanceState.FAILED, error, died)),
                "java.lang.IllegalStateException: " + error,
                died);
    }

    // ---- runtime task definitions ------------------------------------------------------------------------------

    private static io.ax.core.store.StoredDefinition definition(String name, String text, long version) {
        return new io.ax.core.store.StoredDefinition(name, text, version, "n1", T0.plusSeconds(version));
    }

    @Test
    void aDefinitionIsStoredOnceUpdatedByVersionAndDeletedWithItsHistoryAudited() {
        assertThat(store.insertDefinition(definition("sync", "type=HTTP\ntarget=a = b\n", 1)))
                .isTrue();
        assertThat(store.insertDefinition(definition("sync", "other", 1)))
                .as("the name is taken")
                .isFalse();
        assertThat(store.findDefinitions()).containsExactly(definition("sync", "type=HTTP\ntarget=a = b\n", 1));

        assertThat(store.updateDefinition(definition("sync", "v2", 2))).isTrue();
        assertThat(store.updateDefinition(definition("sync", "v2 again", 2)))
                .as("version 1 is gone: a second writer that read it loses")
                .isFalse();
        assertThat(store.updateDefinition(definition("unknown", "v2", 2))).isFalse();
        assertThat(store.findDefinitions()).containsExactly(definition("sync", "v2", 2));

        assertThat(store.deleteDefinition("sync", 1, "n2", T0.plusSeconds(9)))
                .as("not at version 1 any more")
                .isFalse();
        assertThat(store.deleteDefinition("sync", 2, "n2", T0.plusSeconds(9))).isTrue();
        assertThat(store.findDefinitions()).isEmpty();
        assertThat(store.deleteDefinition("sync", 2, "n2", T0.plusSeconds(9))).isFalse();

        assertThat(store.definitionHistory("sync"))
                .extracting(
                        io.ax.core.store.DefinitionChange::version,
                        io.ax.core.store.DefinitionChange::action,
                        io.ax.core.store.DefinitionChange::node,
                        io.ax.core.store.DefinitionChange::definition)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1L, "REGISTERED", "n1", "type=HTTP\ntarget=a = b\n"),
                        org.assertj.core.groups.Tuple.tuple(2L, "UPDATED", "n1", "v2"),
                        org.assertj.core.groups.Tuple.tuple(2L, "UNREGISTERED", "n2", null));
        assertThat(store.definitionHistory("sync").get(2).at()).isEqualTo(T0.plusSeconds(9));
        assertThat(store.definitionHistory("unknown")).isEmpty();
    }

    @Test
    void definitionsAreListedByName() {
        store.insertDefinition(definition("b", "x", 1));
        store.insertDefinition(definition("a", "y", 1));
        assertThat(store.findDefinitions())
                .extracting(io.ax.core.store.StoredDefinition::name)
                .containsExactly("a", "b");
    }
}
