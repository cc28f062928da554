package io.ax.core;

/**
 * Runs the work of a task of some type. The engine picks the first registered executor whose
 * {@link #matchTaskType} accepts the task's type. Implementations must be thread-safe and should stop when their
 * thread is interrupted (that is how timeouts stop them).
 */
public interface AxExecutor {

    /** Whether this executor runs tasks of {@code type}. */
    boolean matchTaskType(String type);

    /**
     * Checks a task of a type this executor claims when the task is defined (registered), so that a task that
     * could never run fails at start-up, not at its first fire. Does nothing by default.
     *
     * @throws InvalidTaskException naming the attribute at fault and why (without echoing secrets)
     */
    default void check(AxTask task) {}

    /**
     * Runs one attempt.
     *
     * @return the outcome; null counts as success
     * @throws Exception any failure, which fails the attempt
     */
    AxResult execute(AxTask task, AxContext context) throws Exception;

    /** Called after a successful attempt, on the worker thread. Exceptions are logged and ignored. */
    default void onSuccess(AxTask task, AxContext context, AxResult result) {}

    /** Called after a failed attempt (not for timeouts), on the worker thread. Exceptions are logged and ignored. */
    default void onFailure(AxTask task, AxContext context, Throwable error) {}
}
