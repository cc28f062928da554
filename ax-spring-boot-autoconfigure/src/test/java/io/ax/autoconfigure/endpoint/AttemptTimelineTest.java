package io.ax.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AuditEntry;
import io.ax.core.InstanceState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Attempts read from an audit trail: a retry, a takeover that recorded no end, an attempt still running. */
class AttemptTimelineTest {

    private static final Instant T0 = Instant.parse("2026-12-01T02:00:00Z");

    @Test
    void eachAttemptRunsFromItsRunningRowToTheRowThatEndedIt() {
        List<AuditEntry> trail = List.of(
                row(null, InstanceState.CREATED, "a", 0, 0, ""),
                row(InstanceState.CREATED, InstanceState.SCHEDULED, "a", 0, 0, ""),
                row(InstanceState.DISPATCHED, InstanceState.RUNNING, "a", 1, 100, ""),
                row(InstanceState.RUNNING, InstanceState.FAILED, "a", 1, 350, "boom"),
                row(InstanceState.FAILED, InstanceState.RETRYING, "a", 1, 351, "retry in 1s"),
                row(InstanceState.DISPATCHED, InstanceState.RUNNING, "b", 2, 1400, ""),
                row(InstanceState.DISPATCHED, InstanceState.RUNNING, "c", 2, 9000, "taken over"),
                row(InstanceState.RUNNING, InstanceState.SUCCESS, "c", 2, 9040, "done"));

        List<AxDescriptors.Attempt> attempts = AttemptTimeline.of(trail);

        assertThat(attempts)
                .extracting(AxDescriptors.Attempt::outcome)
                .containsExactly("FAILED", "TAKEN_OVER", "SUCCESS");
        assertThat(attempts.get(0).durationMillis()).isEqualTo(250);
        assertThat(attempts.get(0).error()).isEqualTo("boom");
        assertThat(attempts.get(1).node()).isEqualTo("b");
        assertThat(attempts.get(1).ended()).isNull();
        assertThat(attempts.get(2).node()).isEqualTo("c");
        assertThat(attempts.get(2).durationMillis()).isEqualTo(40);
        assertThat(attempts.get(2).error()).as("only a failure has an error").isNull();
    }

    @Test
    void anAttemptEndedByATakeoverIsTakenOverNotFailed() {
        List<AxDescriptors.Attempt> attempts = AttemptTimeline.of(List.of(
                row(InstanceState.SCHEDULED, InstanceState.RUNNING, "a", 1, 0, ""),
                row(InstanceState.RUNNING, InstanceState.FAILED, "b", 1, 3000, AuditEntry.TAKEOVER + "node a is gone"),
                row(InstanceState.FAILED, InstanceState.RETRYING, "b", 1, 3001, "attempt 2 now"),
                row(InstanceState.RETRYING, InstanceState.RUNNING, "b", 2, 3010, ""),
                row(InstanceState.RUNNING, InstanceState.FAILED, "b", 2, 3050, "java.lang.IllegalStateException")));

        assertThat(attempts).extracting(AxDescriptors.Attempt::outcome).containsExactly("TAKEN_OVER", "FAILED");
        assertThat(attempts.get(0).error()).isEqualTo(AuditEntry.TAKEOVER + "node a is gone");
    }

    @Test
    void anAttemptWithoutAnEndIsRunning() {
        List<AxDescriptors.Attempt> attempts =
                AttemptTimeline.of(List.of(row(InstanceState.DISPATCHED, InstanceState.RUNNING, "a", 1, 0, "")));

        assertThat(attempts).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo("RUNNING");
            assertThat(a.durationMillis()).isNull();
        });
        assertThat(AttemptTimeline.of(List.of())).isEmpty();
    }

    private static AuditEntry row(InstanceState from, InstanceState to, String node, int attempt, long ms, String why) {
        return new AuditEntry("i-1", from, to, node, attempt, T0.plusMillis(ms), why);
    }
}
