package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxResult;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.cluster.ClusterSettings;
import io.ax.core.cluster.FencedOutException;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.RecordingExecutor;
import io.ax.test.store.FailingStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A leader that stops leading and leads again at once (its lease lapsed in an outage and its next round took it
 * back): what it held for the old term is cleared on the dispatch thread, after whatever that thread is doing, and
 * must not wipe what the new term's takeover has put there meanwhile. The fault runner saw a non-overlapping series
 * run two fires at once on one node this way, right after a two-second cut of the database.
 */
class LeadingAgainTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final InMemoryInstanceStore real = new InMemoryInstanceStore();
    private final FailingStore store = new FailingStore(real);
    private final RecordingExecutor executor = new RecordingExecutor();
    private final CountDownLatch releaseHandler = new CountDownLatch(1);
    private final CountDownLatch releaseDispatch = new CountDownLatch(1);
    private AxEngine engine;

    @AfterEach
    void stop() {
        releaseDispatch.countDown();
        releaseHandler.countDown();
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void aTakeoverThatRunsBeforeTheOldTermIsClearedKeepsANonOverlappingTaskFromOverlapping() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        executor.when("slow", ctx -> {
            started.countDown();
            releaseHandler.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            return AxResult.success();
        });
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .nodeId("node-a")
                .clusterSettings(new ClusterSettings(
                        Duration.ofMillis(100),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(1),
                        Duration.ofMillis(50),
                        32))
                .build();
        engine.register(AxTask.builder("slow").target("test.slow").build()); // concurrent = false
        engine.start();
        String first = engine.triggerNow("slow");
        assertThat(started.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();

        // the dispatch thread is busy (a backlog after an outage, say): what is handed to it waits
        engine.parts().onDispatchThread(() -> {
            try {
                releaseDispatch.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // the takeover of the new term has read the running instance (it reads the due ones right after)
        CountDownLatch takenOver = new CountDownLatch(1);
        AtomicBoolean steppedDown = new AtomicBoolean();
        store.afterRead(what -> {
            if (steppedDown.get() && what.equals("findScheduled")) {
                takenOver.countDown();
            }
        });
        long failovers = engine.status().failovers();
        long epoch = engine.status().cluster().epoch();
        steppedDown.set(true);
        engine.parts()
                .leadership
                .fencedOut(new FencedOutException(epoch)); // it stops leading; its next round leads again
        await().atMost(BOUND)
                .until(() -> engine.status().failovers() > failovers
                        && engine.status().cluster().isLeader());
        assertThat(takenOver.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
        releaseDispatch.countDown(); // the old term's clearing runs now, after the new term's takeover

        String second = engine.triggerNow("slow");
        await().atMost(BOUND)
                .until(() -> real.find(second)
                        .map(i -> i.state() != InstanceState.SCHEDULED)
                        .orElse(false));
        assertThat(real.find(second).orElseThrow().state())
                .as("a second instance of the running non-overlapping task")
                .isEqualTo(InstanceState.SKIPPED);
        assertThat(executor.runsOf("slow")).hasSize(1);
        releaseHandler.countDown();
        await().atMost(BOUND).until(() -> real.find(first).orElseThrow().state() == InstanceState.SUCCESS);
    }
}
