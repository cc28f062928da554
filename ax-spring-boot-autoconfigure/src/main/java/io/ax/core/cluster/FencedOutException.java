package io.ax.core.cluster;

import io.ax.core.AxException;

/**
 * A leader's write was rejected because its epoch is no longer current: another node took the lease over. Nothing
 * of the rejected write was applied; the writer must stop deciding at once.
 */
public final class FencedOutException extends AxException {

    private final long epoch;

    public FencedOutException(long epoch) {
        super("Write rejected: leader epoch " + epoch + " is no longer current (another node took over)");
        this.epoch = epoch;
    }

    /** The stale epoch the write carried. */
    public long epoch() {
        return epoch;
    }
}
