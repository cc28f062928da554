package io.ax.core.engine;

import io.ax.core.AxTask;
import java.time.Instant;

/**
 * Opens a scope around each attempt, on the worker thread that runs it, so that a tracing library can make one span
 * per attempt with the handler's own work inside it. The core knows no tracing library: the Spring wiring implements
 * this with Micrometer's {@code Observation} when the application has an {@code ObservationRegistry}.
 *
 * <p>Called on worker threads: implementations must be thread-safe and fast. A tracer that throws is logged and
 * otherwise ignored; it never fails an attempt.
 */
public interface AttemptTracer {

    /** No tracing. */
    AttemptTracer NONE = attempt -> outcome -> {};

    /**
     * An attempt starts on the calling thread; the returned scope is ended on the same thread when the handler
     * returns or throws.
     */
    Scope begin(Attempt attempt);

    /**
     * One attempt of an instance.
     *
     * @param task the task
     * @param instanceId the instance, stable across its attempts
     * @param attempt the attempt number, 1-based
     * @param scheduledTime the instance's fire time
     * @param traceParent the W3C {@code traceparent} captured when the instance was scheduled ({@link
     *     TraceContextCapture}), which the attempt's span continues as its parent; null when there is none (a
     *     trigger's fire, or a caller outside any trace)
     */
    record Attempt(AxTask task, String instanceId, int attempt, Instant scheduledTime, String traceParent) {}

    /** An open attempt. */
    interface Scope {

        /** The attempt ended, as {@code outcome} says. */
        void end(Outcome outcome);
    }

    /**
     * How an attempt ended.
     *
     * @param name {@code success}, {@code failed} or {@code timeout}
     * @param error what the handler threw, or null
     */
    record Outcome(String name, Throwable error) {}
}
