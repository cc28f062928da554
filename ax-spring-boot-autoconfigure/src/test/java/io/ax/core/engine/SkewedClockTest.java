package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AxClockJumpEvent;
import io.ax.core.clock.TimeReference;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.test.FakeClock;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node whose wall clock is skewed from the cluster's reference clock: the offset measured at its start is no clock
 * jump, one real jump of its local clock is one jump (not a second, reverse one when the next measurement of the
 * offset makes up for it), and a step of the reference itself is one jump. The local clock is a fake that moves only
 * when the test moves it; the reference tells the true time, which follows the monotonic clock.
 */
class SkewedClockTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final Instant TRUE_START = Instant.parse("2030-01-01T00:00:00Z");
    private static final Duration SKEW = Duration.ofSeconds(7);

    /** This node's clock: 7 s ahead of the truth. */
    private final FakeClock local = new FakeClock(TRUE_START.plus(SKEW), 0);

    private final List<AxClockJumpEvent> events = new CopyOnWriteArrayList<>();
    private volatile Duration referenceStep = Duration.ZERO;
    private final java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
    private AxEngine engine;

    /** The cluster's clock: the true time (the monotonic clock's), stepped by {@link #referenceStep}. */
    private final TimeReference reference = new TimeReference() {
        @Override
        public Instant read() {
            reads.incrementAndGet();
            return TRUE_START.plusNanos(local.nanoTime()).plus(referenceStep);
        }

        @Override
        public String name() {
            return "database";
        }
    };

    private AxEngine start(Duration refresh) {
        engine = AxEngine.builder()
                .store(new InMemoryInstanceStore())
                .router(new ExecutorRouter(List.of(new RecordingExecutor())))
                .clock(local)
                .clusterTime(reference, refresh)
                .nodeId("node-a")
                .clockJumpThreshold(Duration.ofMillis(500))
                .clockPause(Duration.ofSeconds(2))
                .onClockJump(events::add)
                .build();
        engine.start();
        return engine;
    }

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @Test
    void theOffsetMeasuredAtTheStartOfASkewedNodeIsNoClockJump() {
        start(Duration.ofMinutes(10));
        assertThat(engine.status().clusterTime().orElseThrow().offset()).isEqualTo(SKEW.negated());

        local.advance(Duration.ofSeconds(1));
        engine.parts().clockGuard.check();

        assertThat(events).as("clock jump events").isEmpty();
        assertThat(engine.status().clockStatus().jumps()).isZero();
        assertThat(engine.status().clockStatus().paused()).isFalse();
        assertThat(engine.parts().clock.instant()).isEqualTo(TRUE_START.plusSeconds(1));
    }

    @Test
    void oneJumpOfTheLocalClockIsOneJumpEventAndTheOffsetMakesUpForIt() {
        start(Duration.ofMinutes(10)); // no refresh of its own during the test: the jump asks for one
        local.advance(Duration.ofSeconds(1));
        engine.parts().clockGuard.check();

        int readsAtJump = reads.get();
        local.jumpWall(Duration.ofSeconds(5));
        engine.parts().clockGuard.check();
        await().atMost(BOUND).until(() -> !events.isEmpty()); // the listeners hear of it on a thread of their own
        assertThat(events).hasSize(1);
        assertThat(events.get(0).jump()).isEqualTo(Duration.ofSeconds(5));
        // the offset made up for the jump at once: the corrected clock did not move
        assertThat(engine.parts().clock.instant()).isEqualTo(TRUE_START.plusSeconds(1));
        assertThat(engine.status().clusterTime().orElseThrow().offset())
                .isEqualTo(SKEW.plusSeconds(5).negated());
        // and the measurement it asked for at once confirms it
        // (the refresh period is ten minutes: only the jump's request reads the reference now, three readings)
        await().atMost(BOUND).until(() -> reads.get() >= readsAtJump + 3);
        assertThat(engine.status().clusterTime().orElseThrow().offset())
                .isEqualTo(SKEW.plusSeconds(5).negated());
        assertThat(engine.parts().clock.instant()).isEqualTo(TRUE_START.plusSeconds(1));

        local.advance(Duration.ofSeconds(1));
        engine.parts().clockGuard.check();
        assertThat(engine.status().clockStatus().jumps())
                .as("jumps after the offset made up for it")
                .isEqualTo(1);
        assertThat(events).hasSize(1);
    }

    @Test
    void aDeadlineSetRightAfterALocalJumpIsSetOnTheTrueTime() {
        start(Duration.ofMinutes(10));
        local.advance(Duration.ofSeconds(1));
        engine.parts().clockGuard.check();
        Instant due = engine.parts().clock.instant().plusSeconds(5);

        // the clock watch looks once a second; a deadline set before it looks must not move with the jump (a fire
        // loaded into the wheel then, from the store, would start 10 s early by the cluster's clock)
        local.jumpWall(Duration.ofSeconds(10));
        long deadline = engine.parts().deadlineOf(due);

        assertThat(Duration.ofNanos(deadline - local.nanoTime())).isEqualTo(Duration.ofSeconds(5));
        assertThat(engine.parts().clock.instant()).isEqualTo(due.minusSeconds(5));
        assertThat(engine.status().clockStatus().jumps()).isEqualTo(1);
    }

    @Test
    void aStepOfTheReferenceClockIsOneJumpEvent() {
        start(Duration.ofMillis(100));
        local.advance(Duration.ofSeconds(1));
        engine.parts().clockGuard.check();
        assertThat(events).isEmpty();

        referenceStep = Duration.ofSeconds(3);
        await().atMost(BOUND)
                .until(() -> engine.status()
                        .clusterTime()
                        .orElseThrow()
                        .offset()
                        .equals(SKEW.negated().plusSeconds(3)));
        engine.parts().clockGuard.check();
        local.advance(Duration.ofSeconds(1));
        engine.parts().clockGuard.check();

        assertThat(engine.status().clockStatus().jumps()).isEqualTo(1);
        await().atMost(BOUND).until(() -> !events.isEmpty());
        assertThat(events).hasSize(1);
        assertThat(events.get(0).jump()).isEqualTo(Duration.ofSeconds(3));
        assertThat(engine.status().clockStatus().paused()).isTrue();
    }
}
