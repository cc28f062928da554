package io.ax.core;

/** Thrown by {@link AxScheduler} for a request it refuses; nothing of the request (or its batch) was written. */
public final class InvalidScheduleException extends AxException {

    /**
     * An exception with a message.
     *
     * @param message what was refused: the argument and, in a batch, the request
     */
    public InvalidScheduleException(String message) {
        super(message);
    }
}
