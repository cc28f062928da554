package io.ax.core.engine.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxContext;
import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.MisfirePolicy;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.trigger.CronTrigger;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A series whose first fire is pinned to a time that passed before it was planned: that fire is a late fire of the
 * series, with its own fire time, and the task's misfire policy decides what becomes of it.
 */
class PinnedFirstFireTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    /** A whole hour three hours ago: a time of the hourly expression that passed. */
    private final Instant pinned = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(3));

    private AxEngine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    private AxEngine engine(Duration misfireThreshold) {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("pinned-node")
                .misfireThreshold(misfireThreshold)
                .build();
        return engine;
    }

    private AxTask hourlyFrom(String name, MisfirePolicy policy) {
        return AxTask.builder(name)
                .trigger(CronTrigger.of("0 0 * * * ?", ZoneOffset.UTC).firstFireFrom(pinned))
                .timeout(Duration.ofSeconds(5))
                .misfire(policy)
                .build();
    }

    @Test
    void fireOnceRunsThePassedFirstFireOnceWithItsFireTimeThenFollowsTheExpression() {
        AxEngine engine = engine(Duration.ofSeconds(5));
        engine.register(hourlyFrom("report", MisfirePolicy.FIRE_ONCE));
        engine.start();

        await().atMost(BOUND).until(() -> executor.runsOf("report").size() == 1);
        assertThat(executor.runsOf("report"))
                .singleElement()
                .extracting(AxContext::scheduledTime)
                .isEqualTo(pinned);
        await().atMost(BOUND).until(() -> pending("report").size() == 1);
        TaskInstance next = pending("report").get(0);
        assertThat(next.origin()).isEqualTo(InstanceOrigin.SERIES);
        assertNextTimeOfTheExpressionAfterThePresent(next.scheduledTime());
        assertThat(store.findByTask("report", 10))
                .filteredOn(i -> i.scheduledTime().equals(pinned))
                .singleElement()
                .extracting(TaskInstance::origin)
                .isEqualTo(InstanceOrigin.CATCH_UP);
    }

    @Test
    void skipPassesThePassedFirstFireOfATaskRegisteredWhileTheEngineRuns() {
        AxEngine engine = engine(Duration.ofSeconds(5));
        engine.start();
        engine.register(hourlyFrom("report", MisfirePolicy.SKIP));

        await().atMost(BOUND).until(() -> pending("report").size() == 1);
        assertThat(store.findByTask("report", 10))
                .as("no instance for the passed time: only the next one of the expression")
                .hasSize(1);
        assertNextTimeOfTheExpressionAfterThePresent(pending("report").get(0).scheduledTime());
        assertThat(executor.runsOf("report")).isEmpty();
    }

    @Test
    void aFirstFireThatPassedWithinTheMisfireThresholdRunsAsTheSeriesFire() {
        // a daily expression pinned to the last midnight, with a threshold longer than a day: late, not missed
        Instant midnight = Instant.now().truncatedTo(ChronoUnit.DAYS);
        AxEngine engine = engine(Duration.ofHours(25));
        engine.register(AxTask.builder("daily")
                .trigger(CronTrigger.of("0 0 0 * * ?", ZoneOffset.UTC).firstFireFrom(midnight))
                .timeout(Duration.ofSeconds(5))
                .misfire(MisfirePolicy.SKIP)
                .build());
        engine.start();

        await().atMost(BOUND).until(() -> executor.runsOf("daily").size() == 1);
        assertThat(executor.runsOf("daily"))
                .singleElement()
                .extracting(AxContext::scheduledTime)
                .isEqualTo(midnight);
        assertThat(store.findByTask("daily", 10))
                .filteredOn(i -> i.scheduledTime().equals(midnight))
                .singleElement()
                .extracting(TaskInstance::origin)
                .isEqualTo(InstanceOrigin.SERIES);
        await().atMost(BOUND).until(() -> pending("daily").size() == 1);
        assertThat(pending("daily").get(0).scheduledTime()).isEqualTo(midnight.plus(Duration.ofDays(1)));
    }

    /** A whole hour, after the pinned one and within the hour ahead: not one of the missed hours between. */
    private void assertNextTimeOfTheExpressionAfterThePresent(Instant next) {
        assertThat(next).isEqualTo(next.truncatedTo(ChronoUnit.HOURS));
        assertThat(next)
                .isAfter(pinned.plus(Duration.ofHours(3)))
                .isBeforeOrEqualTo(Instant.now().plus(Duration.ofHours(1)));
    }

    private List<TaskInstance> pending(String task) {
        return store.findByTask(task, 10).stream()
                .filter(i -> i.state() == InstanceState.SCHEDULED)
                .toList();
    }
}
