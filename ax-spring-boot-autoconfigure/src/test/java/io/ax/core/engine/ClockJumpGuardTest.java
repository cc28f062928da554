package io.ax.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.ax.core.AuditEntry;
import io.ax.core.AxClockJumpEvent;
import io.ax.core.AxContext;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import io.ax.core.store.InMemoryInstanceStore;
import io.ax.core.trigger.IntervalTrigger;
import io.ax.test.FakeClock;
import io.ax.test.RecordingExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The engine on a fake clock whose wall time jumps: trigger decisions wait out the pause, nothing is dropped and
 * nothing fires before its time by the wall clock. Time moves only when the test moves it; the wheel is nudged to
 * look at the new time.
 */
class ClockJumpGuardTest {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final Instant FIRE = T0.plusSeconds(5);

    private final FakeClock clock = new FakeClock(T0, 0);
    private final InMemoryInstanceStore store = new InMemoryInstanceStore();
    private final RecordingExecutor executor = new RecordingExecutor();
    private final List<AxClockJumpEvent> events = new CopyOnWriteArrayList<>();
    private final List<AxClockJumpEvent> observed = new CopyOnWriteArrayList<>();
    private AxEngine engine;

    @BeforeEach
    void start() {
        engine = AxEngine.builder()
                .store(store)
                .router(new ExecutorRouter(List.of(executor)))
                .clock(clock)
                .nodeId("node-a")
                .clockJumpThreshold(Duration.ofMillis(500))
                .clockPause(Duration.ofSeconds(2))
                .onClockJump(events::add)
                .observer(new EngineObserver() {
                    @Override
                    public void clockJumped(AxClockJumpEvent event) {
                        observed.add(event);
                    }
                })
                .build();
        engine.register(AxTask.builder("report")
                .target("test.report")
                .timeout(Duration.ofMinutes(5))
                .trigger(IntervalTrigger.fixedRate(Duration.ofHours(2), Duration.ofSeconds(5)))
                .build());
        engine.start();
    }

    @AfterEach
    void stop() {
        engine.stop();
    }

    @Test
    void aForwardJumpHoldsADueFireUntilThePauseEndsThenFiresIt() throws Exception {
        advance(Duration.ofSeconds(4));
        clock.jumpWall(Duration.ofHours(1));
        engine.parts().clockGuard.check();
        assertThat(engine.status().clockStatus().paused()).isTrue();

        advance(Duration.ofSeconds(1)); // the fire falls due by the monotonic clock, inside the pause
        assertThat(pendingFire().state()).isEqualTo(InstanceState.SCHEDULED);
        assertThat(executor.runs()).isEmpty();

        advance(Duration.ofSeconds(1)); // the pause is over
        await().atMost(BOUND).until(() -> pendingFire().state() == InstanceState.SUCCESS);
        assertThat(executor.runs())
                .singleElement()
                .extracting(AxContext::scheduledTime)
                .isEqualTo(FIRE);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.forwards()).isTrue();
            assertThat(e.jump()).isEqualTo(Duration.ofHours(1));
            assertThat(e.pause()).isEqualTo(Duration.ofSeconds(2));
        });
        assertThat(observed).isEqualTo(events);
        assertThat(engine.status().clockStatus().paused()).isFalse();
    }

    @Test
    void aBackwardJumpHoldsAFireUntilTheWallClockReachesItsTime() throws Exception {
        advance(Duration.ofSeconds(4));
        clock.jumpWall(Duration.ofSeconds(-10));
        engine.parts().clockGuard.check();

        advance(Duration.ofSeconds(1)); // due by the monotonic clock, in the pause
        advance(Duration.ofSeconds(1)); // pause over, but the wall clock reads FIRE - 9 s
        assertThat(clock.instant()).isEqualTo(FIRE.minusSeconds(9));
        assertThat(pendingFire().state()).isEqualTo(InstanceState.SCHEDULED);
        assertThat(executor.runs()).isEmpty();

        advance(Duration.ofSeconds(9));
        await().atMost(BOUND).until(() -> pendingFire().state() == InstanceState.SUCCESS);
        AuditEntry started = store.auditTrail(pendingFire().id()).stream()
                .filter(a -> a.to() == InstanceState.RUNNING)
                .findFirst()
                .orElseThrow();
        assertThat(started.at()).as("started by the wall clock").isAfterOrEqualTo(FIRE);
        assertThat(executor.runs())
                .singleElement()
                .extracting(AxContext::scheduledTime)
                .isEqualTo(FIRE);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.forwards()).isFalse();
            assertThat(e.jump()).isEqualTo(Duration.ofSeconds(-10));
        });
    }

    @Test
    void theClockWatchNoticesAJumpOnItsOwn() {
        clock.jumpWall(Duration.ofMinutes(-3));
        await().atMost(BOUND).until(() -> events.size() == 1);
        assertThat(engine.status().clockStatus().jumps()).isEqualTo(1);
        assertThat(engine.status().clockStatus().lastJump()).isEqualTo(Duration.ofMinutes(-3));
    }

    /** The pending fire of the series: written at start for FIRE. */
    private TaskInstance pendingFire() {
        return store.findByTask("report", 10).stream()
                .filter(i -> i.scheduledTime().equals(FIRE))
                .findFirst()
                .orElseThrow();
    }

    /**
     * Moves both clocks in steps well under the jump threshold (so the clock watch, which may look between the wall
     * and the monotonic step, never sees a jump the test did not make), then lets the wheel and the dispatch thread
     * act on the new time.
     */
    private void advance(Duration d) throws InterruptedException {
        Duration step = Duration.ofMillis(100);
        for (Duration left = d; !left.isZero(); ) {
            Duration s = left.compareTo(step) < 0 ? left : step;
            clock.advance(s);
            left = left.minus(s);
        }
        settle();
    }

    /**
     * Returns once the wheel has handed on everything due by now and the dispatch thread has done it (and what that
     * queued). A timer due well before now wakes the wheel (the wheel may mean to wake at a bucket's start, a little
     * before its earliest deadline, and a timer due then would not wake it);
     * from the dispatch thread it sets a second timer due now, which the wheel hands on after every entry due by now;
     * that one queues the latch behind what those entries queued.
     */
    private void settle() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        EngineParts parts = engine.parts();
        parts.threads.at(
                clock.nanoTime() - Duration.ofMinutes(1).toNanos(),
                () -> parts.threads.at(clock.nanoTime(), () -> parts.onDispatchThread(done::countDown)));
        assertThat(done.await(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }
}
