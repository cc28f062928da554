package io.ax.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.engine.AxEngine;
import io.ax.core.engine.ExecutorRouter;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.store.NewFire;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The {@code ax} component answers within its bound whatever blocks its check, and counts what the store holds due,
 * not only what this node loaded.
 */
class AxHealthBoundTest {

    private static final Duration TIMEOUT = Duration.ofMillis(200);
    /** Far above the timeout: a loaded machine may be slow to run the probe's own thread. */
    private static final long ANSWERS_WITHIN_MILLIS = 3_000;

    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final CountDownLatch unblock = new CountDownLatch(1);
    private volatile boolean blocking;
    private AxEngine engine;
    private AxHealthIndicator indicator;

    @AfterEach
    void stop() {
        unblock.countDown();
        if (indicator != null) {
            indicator.close();
        }
        if (engine != null) {
            engine.stop();
        }
    }

    private void start(Duration maxBacklogAge) {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(new RecordingExecutor())))
                .nodeId("node-a")
                .pools(Map.of())
                .shutdownAwait(Duration.ofSeconds(2))
                .build();
        engine.start();
        AxHealthDetail stuck = new AxHealthDetail() {
            @Override
            public String name() {
                return "part";
            }

            @Override
            public Object value() {
                if (blocking) {
                    try {
                        unblock.await(30, TimeUnit.SECONDS); // a part of the check that blocks, as a starved lock
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return "ok";
            }
        };
        indicator = new AxHealthIndicator(engine, maxBacklogAge, new Status("DEGRADED"), List.of(stuck), TIMEOUT);
    }

    private Health timed() {
        long began = System.nanoTime();
        Health health = indicator.health();
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
        assertThat(tookMillis).as("the probe's wait").isLessThan(ANSWERS_WITHIN_MILLIS);
        return health;
    }

    @Test
    void answersWithinItsBoundWhileItsCheckIsBlockedAndTurnsDownWhenItStaysSo() {
        start(Duration.ofMinutes(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> timed().getStatus().equals(Status.UP));

        blocking = true;
        Health late = timed();
        assertThat(late.getStatus()).as("the last answer, marked").isEqualTo(Status.UP);
        assertThat(late.getDetails().get("check").toString()).contains("the check under way has taken");

        // ten times the bound without a finished check: the node cannot tell its own state
        await().atMost(Duration.ofSeconds(10)).until(() -> timed().getStatus().equals(Status.DOWN));

        unblock.countDown();
        blocking = false;
        await().atMost(Duration.ofSeconds(10)).until(() -> timed().getStatus().equals(Status.UP));
    }

    @Test
    void countsTheDueInstancesOfTheStoreThatNoNodeLoaded() {
        start(Duration.ofSeconds(5));
        // due for a minute, of a task no node here knows: no node loads it, and it waits in the store
        Instant at = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MICROS);
        TaskInstance unknown = new TaskInstance(
                "01unknwn-0000-7000-8000-000000000001",
                "gone-task",
                at,
                InstanceState.SCHEDULED,
                0,
                "elsewhere",
                at,
                InstanceOrigin.DELAYED,
                "k1");
        store.schedule(List.of(new NewFire(unknown, "written by a node that knew the task")));

        await().atMost(Duration.ofSeconds(15)).until(() -> timed().getStatus().equals(new Status("DEGRADED")));
        Health health = timed();
        assertThat(health.getDetails()).containsEntry("dueInStore", "1");
        assertThat((Long) health.getDetails().get("oldestDueNotStartedMillis")).isGreaterThanOrEqualTo(55_000L);
        assertThat((Long) health.getDetails().get("lagMillis"))
                .as("the one node owns every partition: the store's oldest due fire is its own lag")
                .isGreaterThanOrEqualTo(55_000L);
        assertThat(engine.status().backlog().total()).as("nothing loaded here").isZero();
    }
}
