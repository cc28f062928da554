package io.ax.core.store;

import io.ax.core.AxIdempotency;
import io.ax.core.clock.AxClock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Idempotency keys in this JVM: what a node without a shared store uses. Expiry is measured on the monotonic clock.
 * Expired keys are swept every {@value #SWEEP_EVERY} claims, so the map holds only keys still claimed (and those
 * that expired since the last sweep). Thread-safe.
 */
public final class InMemoryIdempotency implements AxIdempotency {

    private static final int SWEEP_EVERY = 1_024;

    private final AxClock clock;
    /** key -> the monotonic time its claim ends. */
    private final ConcurrentHashMap<String, Long> claims = new ConcurrentHashMap<>();

    private final AtomicInteger sinceSweep = new AtomicInteger();

    public InMemoryIdempotency(AxClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public boolean claim(String key, Duration ttl) {
        AxIdempotency.check(key, ttl);
        long now = clock.nanoTime();
        long end = now + ttl.toNanos();
        boolean[] first = {false};
        claims.compute(key, (k, held) -> {
            if (held == null || held - now <= 0) {
                first[0] = true;
                return end;
            }
            return held;
        });
        if (sinceSweep.incrementAndGet() >= SWEEP_EVERY) {
            sinceSweep.set(0);
            claims.values().removeIf(held -> held - now <= 0);
        }
        return first[0];
    }
}
