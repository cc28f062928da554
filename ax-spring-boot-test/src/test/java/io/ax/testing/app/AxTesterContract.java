package io.ax.testing.app;

import static io.ax.testing.AxAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ax.core.AxScheduler;
import io.ax.core.DeadLetter;
import io.ax.core.InstanceDetails;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.UnknownTaskException;
import io.ax.testing.AutoConfigureAxTest;
import io.ax.testing.AxAssertions;
import io.ax.testing.AxTester;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * What the tester promises, on a store of each kind (the subclasses): time moves only when the test moves it, every
 * fire on the way runs once and on time, retries and timeouts pass on the test's clock, and each call returns when
 * the engine has settled. The context starts under {@code ax.strict-properties}: the test support's own settings are
 * known keys.
 */
@SpringBootTest(
        classes = KitApplication.class,
        properties = {"ax.strict-properties=true", "ax.test.patience=300ms", "ax.test.await=20s"})
@AutoConfigureAxTest
abstract class AxTesterContract {

    @Autowired
    AxTester ax;

    @Autowired
    AxScheduler scheduler;

    @Autowired
    KitJobs jobs;

    @Test
    void aJumpOfAMinuteRunsEachOfACronsTwelveFireTimesOnceAndOnTime() {
        Instant from = ax.now();
        int before = jobs.beats.size();

        ax.advance(Duration.ofMinutes(1));

        List<Instant> ran = jobs.beats.subList(before, jobs.beats.size());
        assertThat(ran).hasSize(12).doesNotHaveDuplicates().allMatch(t -> t.getEpochSecond() % 5 == 0);
        assertThat(ran.get(0)).isAfter(from).isBefore(from.plusSeconds(6));
        assertThat(ax.now()).isEqualTo(from.plus(Duration.ofMinutes(1)));
        List<TaskInstance> fires = ax.instances("beat").stream()
                .filter(i ->
                        i.scheduledTime().isAfter(from) && !i.scheduledTime().isAfter(ax.now()))
                .toList();
        assertThat(fires).hasSize(12).allMatch(i -> i.state() == InstanceState.SUCCESS, "every fire succeeded");
        assertThat(ax.lastEnded("beat")).succeeded().hasAttempts(1).neverFailed();
    }

    @Test
    void timeStandsStillUntilTheTestMovesIt() {
        Instant from = ax.now();
        int before = jobs.beats.size();

        ax.awaitQuiet();

        assertThat(ax.now()).isEqualTo(from);
        assertThat(jobs.beats).hasSize(before);
    }

    @Test
    void runNowWaitsThroughTheRetriesBackOffsOnTheTestsClock() {
        Instant from = ax.now();

        InstanceDetails flaky = ax.runNow("flaky");

        assertThat(flaky)
                .succeeded()
                .hasAttempts(3)
                .failedWith("flaky failure on attempt 1")
                .wentThrough(
                        InstanceState.RUNNING,
                        InstanceState.FAILED,
                        InstanceState.RETRYING,
                        InstanceState.RUNNING,
                        InstanceState.FAILED,
                        InstanceState.RETRYING,
                        InstanceState.RUNNING,
                        InstanceState.SUCCESS);
        assertThat(ax.now()).as("the back-offs passed on the test's clock").isAfterOrEqualTo(from.plusSeconds(60));
    }

    @Test
    void aTaskWhoseRetriesRunOutDiesWithItsDeadLetter() {
        InstanceDetails doomed = ax.runNow("doomed");

        assertThat(doomed).died().hasAttempts(3).failedWith("the downstream system is gone");
        DeadLetter letter = ax.deadLetter(doomed.instance().id()).orElseThrow();
        assertThat(letter)
                .hasAttempts(3)
                .everyErrorContains("the downstream system is gone")
                .stackTraceContains("KitJobs.doomed");
    }

    @Test
    void aDelayedTaskRunsWhenTheClockReachesItsTime() {
        Instant from = ax.now();
        int before = jobs.reminders.size();
        String id = scheduler.schedule("remind", Duration.ofMinutes(30), null);

        ax.advance(Duration.ofMinutes(29));
        assertThat(jobs.reminders).hasSize(before);
        assertThat(ax.find(id).orElseThrow().instance().state()).isEqualTo(InstanceState.SCHEDULED);

        ax.advance(Duration.ofMinutes(1));
        assertThat(jobs.reminders).hasSize(before + 1);
        assertThat(jobs.reminders.get(before)).isEqualTo(from.plus(Duration.ofMinutes(30)));
        assertThat(ax.find(id).orElseThrow()).succeeded();
    }

    @Test
    void awaitEndMovesTheClockToAnInstancesTimeAhead() {
        Instant at = ax.now().plus(Duration.ofMinutes(10));
        String id = scheduler.schedule("remind", at, null);

        InstanceDetails ended = ax.awaitEnd(id);

        assertThat(ended).succeeded();
        assertThat(ax.now()).isEqualTo(at);
    }

    @Test
    void aHandlerThatBlocksInRealTimeTimesOutOnceThePatienceLetsTheClockPassItsTimeout() {
        InstanceDetails stuck = ax.runNow("stuck");

        assertThat(stuck).died().hasAttempts(1).wentThrough(InstanceState.RUNNING, InstanceState.TIMEOUT);
    }

    @Test
    void aWorkflowsStepsRunAfterItsRootWithTheRunsParameters() {
        int before = jobs.steps.size();

        InstanceDetails root = ax.runNow("extract", Map.of("day", "monday"));
        ax.awaitQuiet();

        assertThat(root).succeeded();
        assertThat(ax.lastEnded("load")).succeeded();
        assertThat(jobs.steps.subList(before, jobs.steps.size())).containsExactly("extract monday", "load rows.csv");
    }

    @Test
    void aFailedAssertionShowsTheInstancesAuditTrail() {
        InstanceDetails flaky = ax.runNow("flaky");

        assertThatThrownBy(() -> AxAssertions.assertThat(flaky).died())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("to be DEAD, but it is SUCCESS")
                .hasMessageContaining("audit trail:")
                .hasMessageContaining("FAILED -> RETRYING")
                .hasMessageContaining("flaky failure on attempt 2");
        assertThatThrownBy(() -> AxAssertions.assertThat(flaky).hasAttempts(1))
                .hasMessageContaining("to have made 1 attempt(s), but it made 3");
    }

    @Test
    void runNowOfAnUnknownTaskSaysSo() {
        assertThatThrownBy(() -> ax.runNow("no-such-task")).isInstanceOf(UnknownTaskException.class);
    }
}
