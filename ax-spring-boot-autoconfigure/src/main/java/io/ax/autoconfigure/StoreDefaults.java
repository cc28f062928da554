package io.ax.autoconfigure;

import io.ax.core.AxIdempotency;
import io.ax.core.clock.AxClock;
import io.ax.core.clock.TimeReference;
import io.ax.core.cluster.ClusterStore;
import io.ax.core.cluster.WakeUps;
import io.ax.core.store.InMemoryIdempotency;
import io.ax.core.store.InstanceStore;

/** What the store offers without Redis: the database paths, and what Redis falls back to. */
public final class StoreDefaults {

    private StoreDefaults() {}

    /** The store's idempotency keys (a table), or this JVM's for a store without any. */
    public static AxIdempotency idempotency(InstanceStore store, AxClock clock) {
        return store instanceof ClusterStore shared
                ? shared.idempotency().orElseGet(() -> new InMemoryIdempotency(clock))
                : new InMemoryIdempotency(clock);
    }

    /** The store's wake-ups (PostgreSQL's LISTEN/NOTIFY), or none. */
    public static WakeUps wakeUps(InstanceStore store) {
        return store instanceof ClusterStore shared ? shared.wakeUps() : WakeUps.none();
    }

    /** The store's clock, or null when it has none (a node alone). */
    public static TimeReference timeReference(InstanceStore store) {
        return store instanceof ClusterStore shared ? shared.timeReference().orElse(null) : null;
    }
}
