package io.ax.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.DeadLetter;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.store.InstanceStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {
            "sample.retry.base=100ms",
            "sample.tick.rate=500ms",
            "spring.datasource.url=jdbc:h2:mem:sample-test;DB_CLOSE_DELAY=-1"
        })
class SampleApplicationTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @Autowired
    InstanceStore store;

    @Autowired
    DeadLetterAlarm alarm;

    @Test
    void keepsItsInstancesInTheDatabase() {
        assertThat(store).isInstanceOf(io.ax.jdbc.JdbcInstanceStore.class);
    }

    @Test
    void cronJobSucceedsEveryFiveSeconds() {
        TaskInstance done = awaitInstance("heartbeat", InstanceState.SUCCESS);
        assertThat(done.scheduledTime().getEpochSecond() % 5).isZero();
        assertThat(done.scheduledTime().getNano()).isZero();
    }

    @Test
    void fixedRateJobSucceeds() {
        awaitInstance("tick", InstanceState.SUCCESS);
    }

    @Test
    void flakyJobFailsTwiceThenSucceedsUnderOneInstanceId() {
        TaskInstance done = awaitInstance("flaky", InstanceState.SUCCESS);
        assertThat(done.attempt()).isEqualTo(3);
        assertThat(states(done.id()))
                .containsExactly(
                        InstanceState.CREATED,
                        InstanceState.SCHEDULED,
                        InstanceState.RUNNING,
                        InstanceState.FAILED,
                        InstanceState.RETRYING,
                        InstanceState.RUNNING,
                        InstanceState.FAILED,
                        InstanceState.RETRYING,
                        InstanceState.RUNNING,
                        InstanceState.SUCCESS);
    }

    @Test
    void doomedJobEndsDeadWithADeadLetterAndAnEvent() {
        TaskInstance dead = awaitInstance("doomed", InstanceState.DEAD);
        assertThat(dead.attempt()).isEqualTo(3);
        DeadLetter letter = await().atMost(BOUND)
                .until(() -> deadLetterOf(dead.id()), Optional::isPresent)
                .orElseThrow();
        assertThat(letter.taskName()).isEqualTo("doomed");
        assertThat(letter.attempts())
                .hasSize(3)
                .allSatisfy(a -> assertThat(a.error()).contains("the downstream system is gone"));
        assertThat(letter.lastStackTrace()).contains("IllegalStateException").contains("SampleJobs.doomed");
        await().atMost(BOUND).until(() -> alarm.heard() >= 1);
    }

    @Test
    void slowJobTimesOutAndItsThreadIsInterrupted() {
        TaskInstance dead = awaitInstance("slow", InstanceState.DEAD);
        List<AuditEntry> trail = store.auditTrail(dead.id());
        assertThat(trail).anySatisfy(e -> {
            assertThat(e.to()).isEqualTo(InstanceState.TIMEOUT);
            assertThat(e.reason()).contains("timed out after PT1S");
        });
        // the pool thread is free again: the fixed-rate job keeps succeeding after the timeout
        await().atMost(BOUND)
                .until(() -> store.findByTask("tick", 100).stream()
                        .anyMatch(i -> i.state() == InstanceState.SUCCESS
                                && i.updatedAt().isAfter(dead.updatedAt())));
    }

    private TaskInstance awaitInstance(String task, InstanceState state) {
        return await().atMost(BOUND)
                .until(
                        () -> store.findByTask(task, 50).stream()
                                .filter(i -> i.state() == state)
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
    }

    private Optional<DeadLetter> deadLetterOf(String id) {
        return store.deadLetters(0, 100).stream()
                .filter(d -> d.instanceId().equals(id))
                .findFirst();
    }

    private List<InstanceState> states(String id) {
        return store.auditTrail(id).stream().map(AuditEntry::to).toList();
    }
}
