package io.ax.bench.timers;

import io.netty.util.Timeout;
import io.netty.util.TimerTask;

/**
 * The payload of one timer, the same class for all three systems: it carries its deadline and records its lateness
 * when it fires. 24 bytes with compressed oops (12-byte header, one reference, one long), counted in every
 * system's heap per timer.
 */
final class Probe implements Runnable, TimerTask {

    private final long deadlineNanos;
    private final Lateness lateness;

    Probe(long deadlineNanos, Lateness lateness) {
        this.deadlineNanos = deadlineNanos;
        this.lateness = lateness;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    /** Fires on the system's single timer thread (AX's dispatcher, the STPE worker). */
    @Override
    public void run() {
        lateness.record(deadlineNanos);
    }

    /** Fires on Netty's worker thread. */
    @Override
    public void run(Timeout timeout) {
        lateness.record(deadlineNanos);
    }
}
