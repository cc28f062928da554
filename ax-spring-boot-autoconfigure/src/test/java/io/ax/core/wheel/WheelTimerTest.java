package io.ax.core.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WheelTimerTest {

    private static final long MS = 1_000_000L;
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final AtomicLong clock = new AtomicLong(Long.MAX_VALUE - 100 * MS); // wraps during some tests
    private final List<String> dispatched = new CopyOnWriteArrayList<>();
    private WheelTimer<String> timer;

    @AfterEach
    void closeTimer() {
        if (timer != null) {
            timer.close();
        }
    }

    @Test
    void dispatchesAnEntryOnceTheClockPassesItsDeadline() {
        timer = startedTimer("ax-wheel-test-dispatch", dispatched::add);
        long now = clock.get();
        timer.schedule(now + 5 * MS, "due");
        timer.schedule(now + 500 * MS, "not yet");

        clock.addAndGet(5 * MS);

        await().atMost(PATIENCE).until(() -> dispatched.contains("due"));
        assertThat(dispatched).containsExactly("due");
        assertThat(timer.size()).isEqualTo(1);
    }

    @Test
    void anEarlierDeadlineWakesTheParkedTickThread() {
        String name = "ax-wheel-test-unpark";
        timer = startedTimer(name, dispatched::add);
        timer.schedule(clock.get() + TimeUnit.HOURS.toNanos(1), "in an hour");
        Thread tickThread = threadNamed(name);
        await().atMost(PATIENCE).until(() -> tickThread.getState() == Thread.State.TIMED_WAITING);

        timer.schedule(clock.get(), "now");

        await().atMost(PATIENCE).until(() -> dispatched.contains("now"));
        assertThat(dispatched).containsExactly("now");
    }

    @Test
    void aRescheduleToAnEarlierDeadlineWakesTheParkedTickThread() {
        String name = "ax-wheel-test-reschedule";
        timer = startedTimer(name, dispatched::add);
        long handle = timer.schedule(clock.get() + TimeUnit.HOURS.toNanos(1), "moved to now");
        Thread tickThread = threadNamed(name);
        await().atMost(PATIENCE).until(() -> tickThread.getState() == Thread.State.TIMED_WAITING);

        assertThat(timer.payload(handle)).isEqualTo("moved to now");
        assertThat(timer.reschedule(handle, clock.get())).isTrue();

        await().atMost(PATIENCE).until(() -> dispatched.contains("moved to now"));
        assertThat(timer.reschedule(handle, clock.get()))
                .as("already dispatched")
                .isFalse();
        assertThat(timer.payload(handle)).isNull();
    }

    @Test
    void anIdleTickThreadIsWokenByAScheduleAndPastDeadlinesAreDispatchedAtOnce() {
        String name = "ax-wheel-test-idle";
        timer = startedTimer(name, dispatched::add);
        Thread tickThread = threadNamed(name);
        await().atMost(PATIENCE).until(() -> tickThread.getState() == Thread.State.WAITING);

        timer.schedule(clock.get() - TimeUnit.DAYS.toNanos(1), "overdue");

        await().atMost(PATIENCE).until(() -> dispatched.contains("overdue"));
    }

    @Test
    void aDispatcherThatParksCannotMakeTheTickThreadSleepThroughAWakeUp() throws InterruptedException {
        // The dispatcher of "first" waits until "second" is scheduled (whose unpark gives the tick thread its
        // permit), then parks briefly itself, as a contended lock or a full queue would: that uses the permit up.
        CountDownLatch firstDispatching = new CountDownLatch(1);
        CountDownLatch secondScheduled = new CountDownLatch(1);
        timer = startedTimer("ax-wheel-test-permit", payload -> {
            if (payload.equals("first")) {
                firstDispatching.countDown();
                awaitQuietly(secondScheduled);
                LockSupport.parkNanos(MS);
            }
            dispatched.add(payload);
        });
        timer.schedule(clock.get(), "first");
        assertThat(firstDispatching.await(10, TimeUnit.SECONDS)).isTrue(); // the wheel is empty: idle after this

        timer.schedule(clock.get(), "second");
        secondScheduled.countDown();

        await().atMost(PATIENCE).until(() -> dispatched.contains("second"));
        assertThat(dispatched).containsExactly("first", "second");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aThrowingDispatcherIsCountedAndTheTimerGoesOn() {
        timer = startedTimer("ax-wheel-test-throwing", payload -> {
            if (payload.startsWith("boom")) {
                throw new IllegalStateException("dispatcher failed on " + payload);
            }
            dispatched.add(payload);
        });
        long now = clock.get();
        timer.schedule(now, "boom-1");
        timer.schedule(now, "after-1");

        await().atMost(PATIENCE).until(() -> dispatched.contains("after-1"));
        timer.schedule(clock.get(), "boom-2");
        timer.schedule(clock.get() + MS, "after-2");
        clock.addAndGet(MS);

        await().atMost(PATIENCE).until(() -> dispatched.contains("after-2"));
        assertThat(dispatched).containsExactly("after-1", "after-2");
        assertThat(timer.dispatchFailures()).isEqualTo(2);
    }

    @Test
    void aCancelledEntryIsNeverDispatched() {
        timer = startedTimer("ax-wheel-test-cancel", dispatched::add);
        long now = clock.get();
        long handle = timer.schedule(now + 10 * MS, "cancelled");
        timer.schedule(now + 20 * MS, "marker");

        assertThat(timer.cancel(handle)).isTrue();
        assertThat(timer.cancel(handle)).isFalse();
        clock.addAndGet(20 * MS);

        await().atMost(PATIENCE).until(() -> dispatched.contains("marker"));
        assertThat(dispatched).containsExactly("marker");
    }

    @Test
    void closeStopsTheTickThreadAndIsIdempotent() {
        String name = "ax-wheel-test-close";
        timer = startedTimer(name, dispatched::add);
        Thread tickThread = threadNamed(name);
        assertThat(tickThread.isDaemon()).isTrue();

        timer.close();
        timer.close();

        assertThat(tickThread.isAlive()).isFalse();
        assertThatThrownBy(() -> timer.schedule(clock.get(), "too late"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(name);
        assertThatThrownBy(timer::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void entriesScheduledBeforeStartAreDispatchedOnceStarted() {
        timer = new WheelTimer<>(Duration.ofMillis(1), clock::get, dispatched::add, "ax-wheel-test-before-start");
        timer.schedule(clock.get(), "early bird");

        timer.start();

        await().atMost(PATIENCE).until(() -> dispatched.contains("early bird"));
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> new WheelTimer<String>(Duration.ZERO, clock::get, dispatched::add, "ax"))
                .hasMessageContaining("tick");
        assertThatThrownBy(() -> new WheelTimer<String>(Duration.ofMillis(1), clock::get, dispatched::add, " "))
                .hasMessageContaining("threadName");
    }

    @Test
    void withTheRealClockEveryEntryIsDispatchedOnceAndNeverEarly() throws InterruptedException {
        int count = 1_000;
        CountDownLatch allDispatched = new CountDownLatch(count);
        Queue<Long> earliness = new ConcurrentLinkedQueue<>();
        Queue<Long> dispatchedDeadlines = new ConcurrentLinkedQueue<>();
        WheelTimer<Long> realTimer = new WheelTimer<>(
                Duration.ofMillis(1),
                System::nanoTime,
                deadline -> {
                    long early = deadline - System.nanoTime();
                    if (early > 0) {
                        earliness.add(early);
                    }
                    dispatchedDeadlines.add(deadline);
                    allDispatched.countDown();
                },
                "ax-wheel-test-real-clock");
        try {
            realTimer.start();
            SplittableRandom random = new SplittableRandom(11);
            long now = realTimer.nowNanos();
            for (int i = 0; i < count; i++) {
                long deadline = now + random.nextLong(MS, 20 * MS) + i; // distinct deadlines
                realTimer.schedule(deadline, deadline);
            }

            assertThat(allDispatched.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .isTrue();
            assertThat(earliness).isEmpty();
            assertThat(dispatchedDeadlines).doesNotHaveDuplicates().hasSize(count);
            assertThat(realTimer.size()).isZero();
        } finally {
            realTimer.close();
        }
    }

    private WheelTimer<String> startedTimer(String name, Consumer<String> dispatcher) {
        WheelTimer<String> started = new WheelTimer<>(Duration.ofMillis(1), clock::get, dispatcher, name);
        started.start();
        return started;
    }

    private static Thread threadNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no thread named " + name));
    }
}
