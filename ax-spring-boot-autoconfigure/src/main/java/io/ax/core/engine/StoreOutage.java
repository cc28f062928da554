package io.ax.core.engine;

import java.time.Instant;
import java.util.Objects;

/**
 * The store refuses this node's writes: since when, and the last error. AX keeps its wheel and retries every write
 * with back-off meanwhile; nothing is dropped.
 *
 * @param since when the first write failed
 * @param cause the error of the first failed write
 */
public record StoreOutage(Instant since, String cause) {

    public StoreOutage {
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(cause, "cause");
    }
}
