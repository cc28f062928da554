package io.ax.core;

/**
 * The outcome a task may return. A task method that returns anything else, or nothing, succeeds unless it throws.
 *
 * @param succeeded whether the attempt succeeded
 * @param message a short note; never null
 */
public record AxResult(boolean succeeded, String message) {

    private static final AxResult OK = new AxResult(true, "");

    public AxResult {
        message = message == null ? "" : message;
    }

    public static AxResult success() {
        return OK;
    }

    public static AxResult success(String message) {
        return new AxResult(true, message);
    }

    /** A failed attempt: it is retried like a thrown exception. */
    public static AxResult failure(String message) {
        return new AxResult(false, message);
    }
}
