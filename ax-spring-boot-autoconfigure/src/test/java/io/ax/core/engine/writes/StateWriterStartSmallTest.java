package io.ax.core.engine.writes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.ax.core.InstanceState;
import io.ax.core.Transition;
import io.ax.core.clock.AxClock;
import io.ax.core.store.InstanceStore;
import io.ax.test.store.PlainStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A writer told to start small (the writer of claims) writes the first group of a wave small, so that the first
 * attempts start without waiting for a full group, and the rest of the wave in full groups.
 */
class StateWriterStartSmallTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    /** Lets the lead writer's store call finish: while it is held, the writer under test queues its wave. */
    private volatile CountDownLatch leadMayFinish = new CountDownLatch(1);

    /** The lead writer's store call has begun. */
    private volatile CountDownLatch leadWriting = new CountDownLatch(1);
    /** The sizes of the groups of the writer under test, in order. */
    private final List<Integer> groups = new CopyOnWriteArrayList<>();

    private final InstanceStore store = PlainStore.changesOnly(transitions -> {
        if (transitions.get(0).instanceId().startsWith("lead")) {
            leadWriting.countDown();
            try {
                assertThat(leadMayFinish.await(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                        .isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            groups.add(transitions.size());
        }
        boolean[] applied = new boolean[transitions.size()];
        Arrays.fill(applied, true);
        return applied;
    });

    private final StateWriter lead = new StateWriter(store, 100, "node-a", AxClock.system(), "test-lead");
    private final StateWriter claims = new StateWriter(store, 100, "node-a", AxClock.system(), "test-claims");

    @BeforeEach
    void start() {
        claims.giveWayTo(lead, BOUND.multipliedBy(3));
        lead.start();
        claims.start();
    }

    @AfterEach
    void stop() {
        leadMayFinish.countDown();
        claims.stop(1_000);
        lead.stop(1_000);
    }

    @Test
    void eachWaveBeginsWithASmallGroupAndGoesOnInFullOnes() throws InterruptedException {
        claims.startSmall(3);
        assertThat(wave(10)).as("a wave after the writer idled").containsExactly(3, 7);
        assertThat(wave(10)).as("the next wave, once it idled again").containsExactly(3, 7);
    }

    @Test
    void aWriterNotToldToStartSmallWritesTheWaveInOneGroup() throws InterruptedException {
        assertThat(wave(10)).containsExactly(10);
    }

    @Test
    void aFirstGroupOfNoWriteIsRefused() {
        assertThatThrownBy(() -> claims.startSmall(0)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Queues {@code writes} changes on the writer under test while the writer it gives way to holds its first one
     * back (so that the whole wave is queued when its first group is taken), then lets it go; returns the sizes of
     * the groups the wave was written in.
     */
    private List<Integer> wave(int writes) throws InterruptedException {
        groups.clear();
        leadMayFinish = new CountDownLatch(1);
        leadWriting = new CountDownLatch(1);
        CompletableFuture<Boolean> held = lead.submit(change("lead-" + System.nanoTime()));
        assertThat(leadWriting.await(BOUND.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        List<CompletableFuture<Boolean>> outcomes = new ArrayList<>();
        for (int i = 0; i < writes; i++) {
            outcomes.add(claims.submit(change("claim-" + i)));
        }
        leadMayFinish.countDown();
        await().atMost(BOUND).until(() -> held.isDone() && outcomes.stream().allMatch(CompletableFuture::isDone));
        await().atMost(BOUND).until(claims::idle);
        return List.copyOf(groups);
    }

    private static Transition change(String id) {
        return new Transition(id, InstanceState.RUNNING, InstanceState.SUCCESS, 1, "node-a", Instant.now(), "test");
    }
}
