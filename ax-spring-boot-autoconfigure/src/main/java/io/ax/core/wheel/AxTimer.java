package io.ax.core.wheel;

/**
 * What the engine needs of the timer that keeps what is due soon: fire times of series, retries waiting for their
 * back-off, and running attempts' timeouts. {@link WheelTimer}, a hierarchical timing wheel, is the one AX uses; an
 * application replaces it through {@link AxTimerFactory}.
 *
 * <p>Deadlines are in the terms of the timer's nano clock (see {@link #nowNanos}), compared by subtraction. Every
 * method but {@link #start} and {@link #close} may be called from any thread. The timer hands each due payload to
 * the dispatcher it was created with, on a thread of its own, and that dispatcher never blocks.
 *
 * @param <T> the payload type; payloads are never {@code null}
 */
public interface AxTimer<T> extends AutoCloseable {

    /** Starts the timer's thread; once only. */
    void start();

    /**
     * Schedules a payload; a deadline already past is dispatched at once.
     *
     * @return a handle for {@link #cancel} and {@link #reschedule}
     * @throws IllegalStateException if the timer is closed
     */
    long schedule(long deadlineNanos, T payload);

    /** Cancels a pending entry; false if it was dispatched or cancelled already. */
    boolean cancel(long handle);

    /** Moves a pending entry to another deadline; false if it was dispatched or cancelled already. */
    boolean reschedule(long handle, long deadlineNanos);

    /** The payload of a pending entry, or {@code null} if it was already dispatched or cancelled. */
    T payload(long handle);

    /** The number of entries not yet dispatched nor cancelled. */
    int size();

    /** The clock's current reading: the time base for deadlines. */
    long nowNanos();

    /** How many times the dispatcher has thrown since the timer was created. */
    long dispatchFailures();

    /** Stops the timer's thread; what is pending is dropped. Idempotent. */
    @Override
    void close();
}
