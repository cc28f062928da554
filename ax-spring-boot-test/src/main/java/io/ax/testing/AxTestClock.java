package io.ax.testing;

import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine's clock in a test: it stands still until {@link AxTester#advance} moves it. Wall and monotonic time move
 * together, in one step, so the engine never sees its wall clock jump (which would pause its trigger decisions).
 * Thread-safe.
 */
public final class AxTestClock implements AxClock {

    private record Reading(Instant wall, long nanos) {}

    private final AtomicReference<Reading> now;

    /**
     * A clock that stands at {@code start}, its monotonic reading at 0.
     *
     * @param start the wall-clock time to start at; not null
     * @throws NullPointerException when {@code start} is null
     */
    public AxTestClock(Instant start) {
        this.now = new AtomicReference<>(new Reading(Objects.requireNonNull(start, "start"), 0));
    }

    @Override
    public Instant instant() {
        return now.get().wall();
    }

    @Override
    public long nanoTime() {
        return now.get().nanos();
    }

    /** Moves both clocks forward by {@code step}; only the tester does, between the engine's steps. */
    void advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("the clock of a test moves forward only, not by " + step);
        }
        long nanos = step.toNanos();
        now.updateAndGet(r -> new Reading(r.wall().plusNanos(nanos), r.nanos() + nanos));
    }

    @Override
    public String toString() {
        return "AxTestClock[" + instant() + "]";
    }
}
