package io.ax.core;

/** The root of every exception AX throws. Subtypes carry the ids involved. */
public class AxException extends RuntimeException {

    public AxException(String message) {
        super(message);
    }

    public AxException(String message, Throwable cause) {
        super(message, cause);
    }
}
