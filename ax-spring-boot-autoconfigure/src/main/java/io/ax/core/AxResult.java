package io.ax.core;

/**
 * The outcome a task may return. A task method that returns anything else, or nothing, succeeds unless it throws. The
 * message is recorded in the audit trail: as the reason of the SUCCESS, or in the error of the failed attempt. A
 * workflow step reads its upstream tasks' messages in {@link AxContext#upstreamResults()}.
 *
 * @param succeeded whether the attempt succeeded
 * @param message a short note; never null
 */
public record AxResult(boolean succeeded, String message) {

    private static final AxResult OK = new AxResult(true, "");

    /**
     * An outcome; a null message becomes empty.
     *
     * @param succeeded whether the attempt succeeded
     * @param message a short note; null for none
     */
    public AxResult {
        message = message == null ? "" : message;
    }

    /** {@return a success without a message} */
    public static AxResult success() {
        return OK;
    }

    /**
     * A success with a note, which the audit trail records as the reason of the SUCCESS.
     *
     * @param message a short note; null for none
     * @return a success with that message
     */
    public static AxResult success(String message) {
        return new AxResult(true, message);
    }

    /**
     * A failed attempt: it is retried like a thrown exception. In a transactional task, the attempt's writes roll back.
     *
     * @param message why the attempt failed, recorded in its error
     * @return a failure with that message
     */
    public static AxResult failure(String message) {
        return new AxResult(false, message);
    }
}
