package io.ax.core.engine.writes;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.Transition;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.NewFire;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentCommitsTest {

    private static final Instant T = Instant.parse("2026-12-07T01:00:00Z");

    @Test
    void aRowMissingOrInAnEarlierAttemptOrAnEarlierOlderStateLacksTheChange() {
        RecentCommits.Commit running = commit(InstanceState.RUNNING, 2, T);

        assertThat(RecentCommits.lost(running, null)).isTrue();
        assertThat(RecentCommits.lost(running, row(InstanceState.RETRYING, 1, T.minusSeconds(1))))
                .isTrue();
        assertThat(RecentCommits.lost(running, row(InstanceState.SCHEDULED, 2, T.minusSeconds(1))))
                .isTrue();
        assertThat(RecentCommits.lost(running, row(InstanceState.RUNNING, 2, T)))
                .isFalse();
    }

    @Test
    void aRowAnotherNodeMovedOnHasTheChange() {
        RecentCommits.Commit running = commit(InstanceState.RUNNING, 2, T);

        assertThat(RecentCommits.lost(running, row(InstanceState.SUCCESS, 2, T.plusSeconds(1))))
                .isFalse();
        assertThat(RecentCommits.lost(running, row(InstanceState.RUNNING, 3, T.plusSeconds(5))))
                .isFalse();
        // sent back by another node after the change: an earlier state, but a later time
        assertThat(RecentCommits.lost(running, row(InstanceState.SCHEDULED, 2, T.plusSeconds(1))))
                .isFalse();
    }

    @Test
    void aFinalStateIsLostWhenTheRowIsInAnyOther() {
        RecentCommits.Commit success = commit(InstanceState.SUCCESS, 1, T);

        assertThat(RecentCommits.lost(success, row(InstanceState.RUNNING, 1, T.plusSeconds(9))))
                .isTrue();
        assertThat(RecentCommits.lost(success, row(InstanceState.SUCCESS, 1, T)))
                .isFalse();
        assertThat(RecentCommits.lost(success, row(InstanceState.SUCCESS, 1, T.plusSeconds(3))))
                .as("the attempt ran again after the store lost its end, and ended the same way")
                .isTrue();
    }

    @Test
    void rememberedAreTheLastChangesWithinTheCapacityAndTheWindow() {
        AtomicLong nanos = new AtomicLong();
        RecentCommits commits = new RecentCommits(2, Duration.ofSeconds(10), nanos::get);
        commits.changed(change("a", InstanceState.RUNNING));
        commits.changed(change("b", InstanceState.RUNNING));
        commits.changed(change("a", InstanceState.SUCCESS)); // a again: now the latest
        commits.changed(change("c", InstanceState.RUNNING)); // b goes: the oldest beyond the capacity

        InMemoryInstanceStore store = new InMemoryInstanceStore();
        assertThat(commits.size()).isEqualTo(2);
        assertThat(commits.missingFrom(store)).containsExactly("a", "c");

        nanos.addAndGet(Duration.ofSeconds(11).toNanos());
        commits.changed(change("d", InstanceState.RUNNING));
        assertThat(commits.missingFrom(store)).containsExactly("d");
    }

    @Test
    void commitsAnotherNodeRememberedAreCheckedHereInTheirOrderAndAgeOutByTheirOwnAge() {
        AtomicLong nanos = new AtomicLong(Duration.ofMinutes(5).toNanos());
        RecentCommits departed = new RecentCommits(10, Duration.ofSeconds(10), nanos::get);
        departed.changed(change("a", InstanceState.RUNNING));
        nanos.addAndGet(Duration.ofSeconds(4).toNanos());
        departed.changed(change("b", InstanceState.SUCCESS));
        List<RecentCommits.Remembered> left = departed.remembered();
        assertThat(left).extracting(RecentCommits.Remembered::instanceId).containsExactly("a", "b");
        assertThat(left.get(0).age()).isEqualTo(Duration.ofSeconds(4));

        AtomicLong here = new AtomicLong(); // another process: another monotonic clock
        RecentCommits commits = new RecentCommits(10, Duration.ofSeconds(10), here::get);
        commits.changed(change("b", InstanceState.RUNNING)); // a change of its own, later than the one taken
        commits.changed(change("c", InstanceState.RUNNING));
        commits.adopt(left);
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        assertThat(commits.missingFrom(store))
                .as("a (taken, the oldest), then this node's own b and c")
                .containsExactly("a", "b", "c");
        assertThat(commits.succeeded("b", 1)).as("its own change of b stays").isFalse();

        here.addAndGet(Duration.ofSeconds(7).toNanos()); // a was committed 11 s ago now, c 7 s ago
        commits.changed(change("d", InstanceState.RUNNING));
        assertThat(commits.missingFrom(store)).containsExactly("b", "c", "d");
    }

    @Test
    void aLaterChangeTakenFromAnotherNodeReplacesAnEarlierOneOfThisNode() {
        AtomicLong here = new AtomicLong(Duration.ofMinutes(1).toNanos());
        RecentCommits commits = new RecentCommits(10, Duration.ofSeconds(30), here::get);
        // this node created the instance; then the node that owned its partition ran it, and stopped
        commits.created(
                new TaskInstance("i", "t", T, InstanceState.SCHEDULED, 0, "n6", T, InstanceOrigin.DELAYED, null));
        here.addAndGet(Duration.ofSeconds(5).toNanos());
        commits.adopt(List.of(
                new RecentCommits.Remembered("i", InstanceState.SUCCESS, 1, T.plusSeconds(5), Duration.ofSeconds(1))));

        // the failover lost the run's claim and end: the row is back at its creation, which this node's own
        // change alone would take for no loss
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        store.schedule(List.of(new NewFire(
                new TaskInstance("i", "t", T, InstanceState.SCHEDULED, 0, "n6", T, InstanceOrigin.DELAYED, null), "")));
        assertThat(commits.missingFrom(store)).containsExactly("i");
    }

    private static Transition change(String id, InstanceState to) {
        InstanceState from = to == InstanceState.RUNNING ? InstanceState.SCHEDULED : InstanceState.RUNNING;
        return new Transition(id, from, to, 1, "n1", T, "test");
    }

    @Test
    void anEndFollowedByAChangeFromAnEarlierStateIsNamedThoughTheRowHoldsTheLaterOne() {
        RecentCommits commits = new RecentCommits(10, Duration.ofMinutes(1), () -> 0);
        commits.changed(new Transition("i", InstanceState.RUNNING, InstanceState.SUCCESS, 1, "n1", T, "ok"));
        // the store lost the end, the instance was claimed and run again here before the node found out
        Transition again =
                new Transition("i", InstanceState.RUNNING, InstanceState.SUCCESS, 1, "n1", T.plusSeconds(2), "ok");
        commits.changed(new Transition(
                "i", InstanceState.SCHEDULED, InstanceState.DISPATCHED, 1, "n1", T.plusSeconds(1), "claim"));
        commits.changed(again);
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        store.schedule(List.of(new NewFire(
                new TaskInstance("i", "t", T, InstanceState.SCHEDULED, 0, "n1", T, InstanceOrigin.SERIES, null), "")));
        store.transition(new Transition("i", InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T, ""));
        store.transition(new Transition("i", InstanceState.RUNNING, InstanceState.SUCCESS, 1, "n1", again.at(), ""));

        assertThat(commits.missingFrom(store)).containsExactly("i");
    }

    @Test
    void aClaimOfAnAttemptThisNodeSawFailIsNamedWhateverTheRowHoldsLater() {
        RecentCommits commits = new RecentCommits(10, Duration.ofMinutes(1), () -> 0);
        commits.changed(new Transition("i", InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T, "claim"));
        commits.changed(new Transition("i", InstanceState.RUNNING, InstanceState.FAILED, 1, "n1", T, "failed"));
        commits.changed(new Transition("i", InstanceState.FAILED, InstanceState.RETRYING, 1, "n1", T, "retry"));
        // the store lost all three; the row, SCHEDULED again, is claimed here again before the node found out
        Transition again =
                new Transition("i", InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T.plusSeconds(2), "claim");
        commits.changed(again);
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        store.schedule(List.of(new NewFire(
                new TaskInstance("i", "t", T, InstanceState.SCHEDULED, 0, "n1", T, InstanceOrigin.SERIES, null), "")));
        store.transition(again);

        assertThat(commits.missingFrom(store)).containsExactly("i");
    }

    @Test
    void aSecondClaimOfAnAttemptThisNodeClaimedIsNamedWhateverTheRowHoldsLater() {
        RecentCommits commits = new RecentCommits(10, Duration.ofMinutes(1), () -> 0);
        commits.changed(new Transition("i", InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T, "claim"));
        // the store lost the claim (the handler ran); the row, SCHEDULED again, is claimed here again as attempt 1
        Transition again =
                new Transition("i", InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T.plusSeconds(2), "claim");
        commits.changed(again);
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        store.schedule(List.of(new NewFire(
                new TaskInstance("i", "t", T, InstanceState.SCHEDULED, 0, "n1", T, InstanceOrigin.SERIES, null), "")));
        store.transition(again);

        assertThat(commits.missingFrom(store)).containsExactly("i");
    }

    @Test
    void aClaimAfterThisNodesOwnReturnOfTheAttemptGoesOnWithoutAFinding() {
        RecentCommits commits = new RecentCommits(10, Duration.ofMinutes(1), () -> 0);
        commits.changed(new Transition("i", InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T, "claim"));
        commits.changed(new Transition("i", InstanceState.RUNNING, InstanceState.SCHEDULED, 1, "n1", T, "returned"));
        Transition next =
                new Transition("i", InstanceState.SCHEDULED, InstanceState.RUNNING, 2, "n1", T.plusSeconds(1), "claim");
        commits.changed(next);
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        store.schedule(List.of(new NewFire(
                new TaskInstance("i", "t", T, InstanceState.SCHEDULED, 0, "n1", T, InstanceOrigin.SERIES, null), "")));
        store.transition(new Transition("i", InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T, ""));
        store.transition(new Transition("i", InstanceState.RUNNING, InstanceState.SCHEDULED, 1, "n1", T, ""));
        store.transition(next);

        assertThat(commits.missingFrom(store)).isEmpty();
    }

    @Test
    void aRetryAfterAFailureHereGoesOnWithoutAFinding() {
        RecentCommits commits = new RecentCommits(10, Duration.ofMinutes(1), () -> 0);
        commits.changed(new Transition("i", InstanceState.RUNNING, InstanceState.FAILED, 1, "n1", T, "failed"));
        commits.changed(new Transition("i", InstanceState.FAILED, InstanceState.RETRYING, 1, "n1", T, "retry"));
        Transition next = new Transition(
                "i", InstanceState.RETRYING, InstanceState.RUNNING, 2, "n1", T.plusSeconds(1), "attempt 2");
        commits.changed(next);
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        store.schedule(List.of(new NewFire(
                new TaskInstance("i", "t", T, InstanceState.SCHEDULED, 0, "n1", T, InstanceOrigin.SERIES, null), "")));
        store.transition(new Transition("i", InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T, ""));
        store.transition(new Transition("i", InstanceState.RUNNING, InstanceState.FAILED, 1, "n1", T, ""));
        store.transition(new Transition("i", InstanceState.FAILED, InstanceState.RETRYING, 1, "n1", T, ""));
        store.transition(next);

        assertThat(commits.missingFrom(store)).isEmpty();
    }

    @Test
    void aReplayLeavesTheEndItFollows() {
        RecentCommits commits = new RecentCommits(10, Duration.ofMinutes(1), () -> 0);
        commits.changed(new Transition("i", InstanceState.FAILED, InstanceState.DEAD, 1, "n1", T, "failed"));
        Transition replay =
                new Transition("i", InstanceState.DEAD, InstanceState.RETRYING, 0, "n1", T.plusSeconds(1), "replayed");
        commits.changed(replay);
        InMemoryInstanceStore store = new InMemoryInstanceStore();
        store.schedule(List.of(new NewFire(
                new TaskInstance("i", "t", T, InstanceState.SCHEDULED, 0, "n1", T, InstanceOrigin.SERIES, null), "")));
        store.transition(new Transition("i", InstanceState.SCHEDULED, InstanceState.RUNNING, 1, "n1", T, ""));
        store.transition(new Transition("i", InstanceState.RUNNING, InstanceState.FAILED, 1, "n1", T, ""));
        store.transition(new Transition("i", InstanceState.FAILED, InstanceState.DEAD, 1, "n1", T, ""));
        store.transition(replay);

        assertThat(commits.missingFrom(store)).isEmpty();
    }

    private static RecentCommits.Commit commit(InstanceState state, int attempt, Instant at) {
        return new RecentCommits.Commit("i", state, attempt, at, 0);
    }

    private static TaskInstance row(InstanceState state, int attempt, Instant updatedAt) {
        return new TaskInstance("i", "t", T, state, attempt, "n1", updatedAt, InstanceOrigin.SERIES, null, null);
    }
}
