package io.ax.core.engine.writes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.store.InstanceStore;
import io.ax.test.store.PlainStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A writer that gives way to another (the writers of new fires and of successful ends to the writer of starts)
 * holds its writes back while the other has writes on their way, and no longer than its bound.
 */
class StateWriterGiveWayTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    /** Lets the lead writer's store call finish. */
    private final CountDownLatch leadMayFinish = new CountDownLatch(1);
    /** The lead writer's store call has begun. */
    private final CountDownLatch leadWriting = new CountDownLatch(1);
    /** Instance ids in the order their writes reached the store. */
    private final List<String> written = new CopyOnWriteArrayList<>();

    private final InstanceStore store = PlainStore.changesOnly(transitions -> {
        if (transitions.get(0).instanceId().startsWith("start")) {
            leadWriting.countDown();
            assertThat(leadMayFinish.await(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                    .isTrue();
        }
        transitions.forEach(t -> written.add(t.instanceId()));
        boolean[] applied = new boolean[transitions.size()];
        java.util.Arrays.fill(applied, true);
        return applied;
    });

    private final StateWriter starts = new StateWriter(store, 100, "node-a", AxClock.system(), "test-starts");
    private final StateWriter ends = new StateWriter(store, 100, "node-a", AxClock.system(), "test-ends");

    @AfterEach
    void stop() {
        leadMayFinish.countDown();
        ends.stop(1_000);
        starts.stop(1_000);
    }

    @Test
    void itsWritesWaitWhileTheWriterAheadHasWritesOnTheirWay() throws InterruptedException {
        ends.giveWayTo(starts, BOUND.multipliedBy(3));
        starts.start();
        ends.start();

        CompletableFuture<Boolean> start = starts.submit(change("start-1"));
        assertThat(leadWriting.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        CompletableFuture<Boolean> end = ends.submit(change("end-1"));

        await().during(Duration.ofMillis(300)).atMost(BOUND).until(() -> !end.isDone());
        assertThat(written).isEmpty();

        leadMayFinish.countDown();
        await().atMost(BOUND).until(() -> start.isDone() && end.isDone());
        assertThat(written).containsExactly("start-1", "end-1");
    }

    @Test
    void itWaitsNoLongerThanItsBound() throws InterruptedException {
        ends.giveWayTo(starts, Duration.ofMillis(50));
        starts.start();
        ends.start();

        starts.submit(change("start-1"));
        assertThat(leadWriting.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        CompletableFuture<Boolean> end = ends.submit(change("end-1"));

        // the writer ahead is still busy: the end lands once the bound has passed
        await().atMost(BOUND).until(end::isDone);
        assertThat(written).containsExactly("end-1");
        assertThat(leadMayFinish.getCount()).isEqualTo(1);
    }

    @Test
    void aWriterThatGivesWayToAnIdleOneWritesAtOnce() {
        ends.giveWayTo(starts, BOUND.multipliedBy(3));
        starts.start();
        ends.start();

        CompletableFuture<Boolean> end = ends.submit(change("end-1"));

        await().atMost(BOUND).until(end::isDone);
        assertThat(written).containsExactly("end-1");
    }

    private static Transition change(String id) {
        return new Transition(id, InstanceState.RUNNING, InstanceState.SUCCESS, 1, "node-a", Instant.now(), "test");
    }
}
