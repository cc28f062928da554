package io.ax.core;

/** How the wait before a retry grows with the attempt number. */
public enum Backoff {
    /** Every retry waits the base delay. */
    FIXED,
    /** Retry n waits min(base * 2^(n-1), max). */
    EXPONENTIAL
}
