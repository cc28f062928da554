package io.ax.test;

import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that moves only when told to. Wall and monotonic time advance together. Thread-safe. */
public final class FakeClock implements AxClock {

    private final AtomicReference<Instant> wall;
    private final AtomicLong nanos;

    public FakeClock(Instant start, long startNanos) {
        this.wall = new AtomicReference<>(start);
        this.nanos = new AtomicLong(startNanos);
    }

    public FakeClock(Instant start) {
        this(start, 0);
    }

    @Override
    public Instant instant() {
        return wall.get();
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    /** Moves both clocks forward. */
    public void advance(Duration d) {
        wall.updateAndGet(t -> t.plus(d));
        nanos.addAndGet(d.toNanos());
    }

    /** Moves only the wall clock, as an NTP correction or an operator would. */
    public void jumpWall(Duration d) {
        wall.updateAndGet(t -> t.plus(d));
    }
}
