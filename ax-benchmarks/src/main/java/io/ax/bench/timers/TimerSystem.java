package io.ax.bench.timers;

/**
 * One timer implementation under measurement, holding everything a caller keeps to cancel its timers later (AX:
 * the {@code long} handles; Netty: the {@code Timeout}s; STPE: the {@code ScheduledFuture}s) in an array slot per
 * timer. Each instance is one fresh timer, used from one scheduling thread, then closed.
 */
interface TimerSystem extends AutoCloseable {

    /** Starts the timer and allocates room for {@code capacity} handles. */
    void open(int capacity);

    /**
     * Schedules {@code probe} to fire at its deadline and keeps the handle in slot {@code index}.
     *
     * @param delayNanos {@code probe.deadlineNanos()} minus the clock reading it was computed from, for the APIs
     *     that take a relative delay
     */
    void schedule(int index, Probe probe, long delayNanos);

    /** Cancels the timer in slot {@code index}; {@code true} if it was pending. */
    boolean cancel(int index);

    /** Stops the timer thread and drops the handles. */
    @Override
    void close() throws InterruptedException;
}
