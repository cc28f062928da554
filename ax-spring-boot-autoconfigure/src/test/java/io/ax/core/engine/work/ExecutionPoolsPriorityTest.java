package io.ax.core.engine.work;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.AxTask;
import io.ax.core.InstanceOrigin;
import io.ax.core.engine.PoolSettings;
import io.ax.core.engine.threads.Due;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A saturated pool starts what waits for a worker by priority, whatever order it was handed in. */
class ExecutionPoolsPriorityTest {

    private final ExecutionPools pools =
            new ExecutionPools(Map.of("reports", new PoolSettings(1, 10)), PoolSettings.defaults());

    @AfterEach
    void stop() {
        pools.stopTaking();
        pools.awaitRunning(TimeUnit.SECONDS.toNanos(2), () -> {});
    }

    private static Execution execution(String task, int priority) {
        AxTask t = AxTask.builder(task)
                .target("test." + task)
                .group("reports")
                .priority(priority)
                .build();
        return new Execution(new Due(t, task + "-1", Instant.EPOCH, InstanceOrigin.ON_DEMAND), 1, 0);
    }

    /** Keeps the pool's one worker busy until the latch it returns is counted down. */
    private CountDownLatch occupyTheWorker() throws InterruptedException {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        assertThat(pools.tryReserve("reports")).isTrue();
        pools.submitReserved("reports", execution("blocker", 0), () -> {
            busy.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(busy.await(20, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    @Test
    void whatWaitsForTheWorkerStartsHighestPriorityFirst() throws InterruptedException {
        CountDownLatch release = occupyTheWorker();

        List<String> started = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(5);
        for (var e : List.of(
                execution("nightly-export", -10),
                execution("invoice", 0),
                execution("payment", 50),
                execution("cleanup", -10),
                execution("refund", 50))) {
            assertThat(pools.tryReserve("reports")).isTrue();
            pools.submitReserved("reports", e, () -> {
                started.add(e.instanceId());
                all.countDown();
            });
        }
        release.countDown();

        assertThat(all.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(started).containsExactly("payment-1", "refund-1", "invoice-1", "nightly-export-1", "cleanup-1");
        assertThat(pools.settings("reports").overtakeLimit()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aStopHandsBackWhatWaitsInTheQueueUnstartedAndItsPlaces() throws InterruptedException {
        CountDownLatch release = occupyTheWorker();
        List<String> ran = new CopyOnWriteArrayList<>();
        for (var e : List.of(execution("low", -1), execution("high", 9), execution("mid", 3))) {
            assertThat(pools.tryReserve("reports")).isTrue();
            pools.submitReserved("reports", e, () -> ran.add(e.instanceId()));
        }

        List<Execution> unstarted = pools.stopTaking();
        release.countDown();
        pools.awaitRunning(TimeUnit.SECONDS.toNanos(5), () -> {});

        assertThat(unstarted).extracting(Execution::instanceId).containsExactly("high-1", "mid-1", "low-1");
        assertThat(ran).as("nothing handed back ran").isEmpty();
    }
}
