package io.ax.core.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * A lease held: by whom, at which epoch, and for how long from the moment it was written.
 *
 * @param holder the node holding it
 * @param epoch the fencing token; grows with each takeover, never with a renewal
 * @param remaining how long it had left when written, on the store's clock; counted down from just before the call
 *     that returned it, it runs out no later than the lease does in the store
 */
public record Lease(String holder, long epoch, Duration remaining) {

    public Lease {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(remaining, "remaining");
        if (epoch < 1) {
            throw new IllegalArgumentException("a held lease has an epoch >= 1, was " + epoch);
        }
    }
}
