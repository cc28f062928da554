package io.ax.core.store;

import io.ax.core.AxIdempotency;
import io.ax.test.FakeClock;
import io.ax.test.store.IdempotencyContract;
import java.time.Duration;
import java.time.Instant;

class InMemoryIdempotencyTest extends IdempotencyContract {

    private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryIdempotency idempotency = new InMemoryIdempotency(clock);

    @Override
    protected AxIdempotency idempotency() {
        return idempotency;
    }

    @Override
    protected void passTime(Duration d) {
        clock.advance(d);
    }
}
