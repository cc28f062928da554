package io.ax.core.clock;

import java.time.Instant;

enum SystemClock implements AxClock {
    INSTANCE;

    @Override
    public Instant instant() {
        return Instant.now();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
