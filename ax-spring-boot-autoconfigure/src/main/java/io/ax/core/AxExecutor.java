package io.ax.core;

/**
 * Runs the work of a task of some type. The engine picks the first registered executor whose
 * {@link #matchTaskType} accepts the task's type. Implementations must be thread-safe and should stop when their
 * thread is interrupted (that is how timeouts stop them).
 */
public interface AxExecutor {

    /**
     * Tells whether this executor runs tasks of a type. The engine remembers the executor it picked for each type.
     *
     * @param type a task's type ({@link AxTask#type()}), such as {@link AxTask#LOCAL}
     * @return true if this executor runs tasks of {@code type}
     */
    boolean matchTaskType(String type);

    /**
     * Checks a task of a type this executor claims when the task is defined (registered), so that a task that could
     * never run fails at start-up, not at its first fire. Also called for a run on demand given parameters, with the
     * parameters laid over the task's. Does nothing by default.
     *
     * @param task the task to check, of a type {@link #matchTaskType} accepted
     * @throws InvalidTaskException naming the attribute at fault and why (without echoing secrets)
     */
    default void check(AxTask task) {}

    /**
     * Runs one attempt, on a worker thread of the task's pool. The thread is interrupted when the attempt's timeout
     * elapses.
     *
     * @param task the task as this attempt runs it: its parameters include those given to a run on demand
     * @param context the attempt's context
     * @return the outcome; null counts as success, {@link AxResult#failure} fails the attempt
     * @throws Exception any failure, which fails the attempt
     */
    AxResult execute(AxTask task, AxContext context) throws Exception;

    /**
     * Called after a successful attempt, on the worker thread; the record of its success may still be on its way to the
     * store. Exceptions are logged and ignored. Does nothing by default.
     *
     * @param task the task as defined, without the parameters of a run on demand (the context has those)
     * @param context the attempt's context
     * @param result the outcome the attempt returned; {@link AxResult#success()} when it returned null
     */
    default void onSuccess(AxTask task, AxContext context, AxResult result) {}

    /**
     * Called on the worker thread after an attempt whose {@link #execute} threw or returned a failure, before the
     * failure is recorded. Not called for a timeout. Exceptions are logged and ignored. Does nothing by default.
     *
     * @param task the task as defined, without the parameters of a run on demand (the context has those)
     * @param context the attempt's context
     * @param error what {@code execute} threw; for a returned failure, an {@link IllegalStateException} whose message
     *     holds the failure's
     */
    default void onFailure(AxTask task, AxContext context, Throwable error) {}
}
