package io.ax.core;

/** Thrown by {@link AxScheduler} for a request it refuses; nothing of the request (or its batch) was written. */
public final class InvalidScheduleException extends AxException {

    public InvalidScheduleException(String message) {
        super(message);
    }
}
