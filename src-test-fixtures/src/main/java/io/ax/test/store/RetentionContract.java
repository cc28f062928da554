package io.ax.test.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.AttemptError;
import io.ax.core.DeadLetter;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.InstanceStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How a store deletes old history ({@link InstanceStore#deleteFinished}): only finished instances past their
 * retention, DEAD ones only after their own, with their audit rows and dead letters, never more than asked for and
 * never an unfinished instance. Part of {@link InstanceStoreContract}.
 */
abstract class RetentionContract extends InstanceSearchContract {

    /** When the old history finished. */
    private static final Instant OLD = T0;
    /** When the recent history finished: after the cut-off. */
    private static final Instant RECENT = T0.plus(Duration.ofDays(10));
    /** The cut-off for SUCCESS, SKIPPED and CANCELLED. */
    private static final Instant FINISHED_BEFORE = T0.plus(Duration.ofDays(5));

    private static final Set<InstanceState> FINISHED =
            EnumSet.of(InstanceState.SUCCESS, InstanceState.SKIPPED, InstanceState.CANCELLED);

    @Test
    void deletesFinishedInstancesOlderThanTheCutOffWithTheirAuditRows() {
        List<String> old = new ArrayList<>();
        List<String> recent = new ArrayList<>();
        for (InstanceState state : FINISHED) {
            old.add(walk("old-" + state, state, OLD));
            recent.add(walk("recent-" + state, state, RECENT));
        }

        int deleted = store.deleteFinished(FINISHED_BEFORE, OLD.minusSeconds(1), 100);

        assertThat(deleted).isEqualTo(3);
        for (String id : old) {
            assertThat(store.find(id)).as(id).isEmpty();
            assertThat(store.auditTrail(id)).as(id).isEmpty();
        }
        for (String id : recent) {
            assertThat(store.find(id)).as(id).isPresent();
            assertThat(store.auditTrail(id)).as(id).isNotEmpty();
        }
    }

    @Test
    void neverDeletesAnUnfinishedInstanceHoweverOld() {
        List<String> unfinished = new ArrayList<>();
        for (InstanceState state : InstanceState.values()) {
            if (!state.isFinal()) {
                unfinished.add(walk("unfinished-" + state, state, OLD));
            }
        }
        Map<String, Integer> trails = new java.util.HashMap<>();
        unfinished.forEach(id -> trails.put(id, store.auditTrail(id).size()));

        Instant everything = T0.plus(Duration.ofDays(365));
        assertThat(store.deleteFinished(everything, everything, 100)).isZero();

        for (String id : unfinished) {
            assertThat(store.find(id)).as(id).isPresent();
            assertThat(store.auditTrail(id)).as(id).hasSize(trails.get(id));
        }
    }

    @Test
    void keepsDeadInstancesForTheirOwnLongerRetentionThenDeletesThemWithTheirDeadLetters() {
        String dead = walk("doomed", InstanceState.DEAD, OLD);
        store.saveDeadLetter(deadLetter(dead, "doomed", OLD));

        // past the retention of finished instances, not of DEAD ones
        assertThat(store.deleteFinished(FINISHED_BEFORE, OLD, 100)).isZero();
        assertThat(store.find(dead)).isPresent();
        assertThat(store.deadLetters(0, 10)).extracting(DeadLetter::instanceId).containsExactly(dead);

        assertThat(store.deleteFinished(FINISHED_BEFORE, OLD.plusSeconds(1), 100))
                .isEqualTo(1);
        assertThat(store.find(dead)).isEmpty();
        assertThat(store.auditTrail(dead)).isEmpty();
        assertThat(store.deadLetterCount()).isZero();
    }

    @Test
    void aReplayedDeadInstanceIsNotDeleted() {
        String dead = walk("replayed", InstanceState.DEAD, OLD);
        store.saveDeadLetter(deadLetter(dead, "replayed", OLD));
        store.deleteDeadLetter(dead);
        assertThat(store.transition(new Transition(
                        dead, InstanceState.DEAD, InstanceState.RETRYING, 0, "n1", OLD, "replayed by operator")))
                .isTrue();

        Instant everything = T0.plus(Duration.ofDays(365));
        assertThat(store.deleteFinished(everything, everything, 100)).isZero();
        assertThat(state(dead)).isEqualTo(InstanceState.RETRYING);
    }

    @Test
    void anInstanceThatFinishedExactlyAtTheCutOffIsKept() {
        String atCutOff = walk("edge", InstanceState.SUCCESS, FINISHED_BEFORE);
        String justBefore = walk("edge", InstanceState.SUCCESS, FINISHED_BEFORE.minusNanos(1_000));

        assertThat(store.deleteFinished(FINISHED_BEFORE, OLD, 100)).isEqualTo(1);
        assertThat(store.find(atCutOff)).isPresent();
        assertThat(store.find(justBefore)).isEmpty();
    }

    @Test
    void deletesAtMostTheLimitAndSaysWhenNothingIsLeft() {
        List<String> old = new ArrayList<>();
        for (int n = 0; n < 5; n++) {
            old.add(walk("many", InstanceState.SUCCESS, OLD.plusSeconds(n)));
        }

        assertThat(store.deleteFinished(FINISHED_BEFORE, OLD, 2)).isEqualTo(2);
        assertThat(old.stream().filter(id -> store.find(id).isPresent())).hasSize(3);
        assertThat(store.deleteFinished(FINISHED_BEFORE, OLD, 2)).isEqualTo(2);
        assertThat(store.deleteFinished(FINISHED_BEFORE, OLD, 2))
                .as("less than the limit: done")
                .isEqualTo(1);
        assertThat(store.deleteFinished(FINISHED_BEFORE, OLD, 2)).isZero();
        assertThat(old.stream().filter(id -> store.find(id).isPresent())).isEmpty();
    }

    @Test
    void aDeletedInstancesKeyMayBeUsedAgain() {
        TaskInstance first = delayed("keyed", T0, "order-42");
        store.schedule(List.of(new io.ax.core.store.NewFire(first, "")));
        store.transition(
                new Transition(first.id(), InstanceState.SCHEDULED, InstanceState.CANCELLED, 0, "n1", OLD, ""));

        assertThat(store.deleteFinished(FINISHED_BEFORE, OLD, 100)).isEqualTo(1);

        TaskInstance again = delayed("keyed", RECENT, "order-42");
        assertThat(store.schedule(List.of(new io.ax.core.store.NewFire(again, ""))))
                .containsExactly(true);
        assertThat(store.findByKey("keyed", "order-42")).map(TaskInstance::id).contains(again.id());
    }

    @Test
    void deadLettersOfInstancesTheStoreNeverHeldGoAfterTheDeadRetention() {
        // a MEMORY instance's dead letter: the engine keeps it in its configured store, the instance elsewhere
        store.saveDeadLetter(deadLetter("m-memory-instance", "memo", OLD));
        store.saveDeadLetter(deadLetter("m-younger", "memo", RECENT));

        assertThat(store.deleteFinished(FINISHED_BEFORE, OLD, 100)).isZero();
        assertThat(store.deadLetterCount()).isEqualTo(2);

        assertThat(store.deleteFinished(FINISHED_BEFORE, FINISHED_BEFORE, 100)).isEqualTo(1);
        assertThat(store.deadLetters(0, 10)).extracting(DeadLetter::instanceId).containsExactly("m-younger");
    }

    @Test
    void aLimitBelowOneIsRefused() {
        assertThatThrownBy(() -> store.deleteFinished(FINISHED_BEFORE, OLD, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
    }

    /**
     * A new instance of {@code task} walked to {@code target} along the state machine, each change at {@code at}, so
     * that a finished one finished then.
     *
     * @return its id
     */
    private String walk(String task, InstanceState target, Instant at) {
        TaskInstance instance = onDemand(task, at);
        TaskInstance created = instance.with(InstanceState.CREATED, 0, "n1", at);
        store.create(created, "");
        InstanceState current = InstanceState.CREATED;
        for (InstanceState next : pathTo(target)) {
            assertThat(store.transition(
                            new Transition(instance.id(), current, next, 1, "n1", at, current + " to " + next)))
                    .isTrue();
            current = next;
        }
        return instance.id();
    }

    private static DeadLetter deadLetter(String id, String task, Instant died) {
        return new DeadLetter(
                id,
                task,
                T0,
                Map.of(),
                List.of(new AttemptError(1, InstanceState.FAILED, "boom", died)),
                "java.lang.IllegalStateException: boom",
                died);
    }
}
