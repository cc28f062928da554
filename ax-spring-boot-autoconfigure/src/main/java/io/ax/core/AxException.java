package io.ax.core;

/**
 * The root of AX's own exceptions. Subtypes carry the ids involved. Bad arguments to the values of this package
 * (records, builders) are refused with {@link IllegalArgumentException} or {@link NullPointerException} instead.
 */
public class AxException extends RuntimeException {

    /**
     * An exception with a message and no cause.
     *
     * @param message what went wrong, naming the ids involved
     */
    public AxException(String message) {
        super(message);
    }

    /**
     * An exception with a message and the exception that caused it.
     *
     * @param message what went wrong, naming the ids involved
     * @param cause the exception that caused it
     */
    public AxException(String message, Throwable cause) {
        super(message, cause);
    }
}
