package io.ax.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.ax.core.InstanceState;
import io.ax.test.FakeClock;
import io.ax.test.store.PermitsContract;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryPermitsTest extends PermitsContract<InMemoryInstanceStore> {

    /** Near the end of the nano range, so that rates' windows run across its wrap. */
    private final FakeClock clock = new FakeClock(
            Instant.parse("2026-01-01T00:00:00Z"),
            Long.MAX_VALUE - Duration.ofSeconds(45).toNanos());

    @Override
    protected InMemoryInstanceStore newStore() {
        return new InMemoryInstanceStore();
    }

    /** Over the store's instances, as its own permits, but on a clock the test moves. */
    @Override
    protected Permits permitsOf(InMemoryInstanceStore store) {
        return new InMemoryPermits(store, clock);
    }

    @Override
    protected void timePasses(Duration time) {
        clock.advance(time);
    }

    @Test
    void theStoresOwnPermitsMeasureRatesOnTheSystemClock() {
        Permits own = store.permits().orElseThrow();
        Permits.Limit once = new Permits.Limit("rate:task:export", 1, Duration.ofMinutes(1));
        String a = due();
        String b = due();

        assertThat(own.claim(claim(a), List.of(once), false)).isEqualTo(Permits.Outcome.CLAIMED);
        move(a, InstanceState.RUNNING, InstanceState.SUCCESS, 1);
        assertThat(own.claim(claim(b), List.of(once), false)).isEqualTo(Permits.Outcome.waits(once, List.of(a)));
    }
}
