package io.ax.core.engine;

import java.util.Optional;

/**
 * Reads the trace a caller of {@link io.ax.core.AxScheduler} is in, so that the execution it schedules continues
 * that trace: the value is kept with the instance ({@link io.ax.core.TaskInstance#traceParent()}) and handed to
 * each attempt's {@link AttemptTracer} ({@link AttemptTracer.Attempt#traceParent()}), whose span then has the
 * caller's span as its parent. The core knows no tracing library: the Spring wiring implements this with
 * Micrometer Tracing when the application has a {@code Tracer} and a {@code Propagator}.
 *
 * <p>Called on the caller's thread, once per {@code schedule} or {@code scheduleAll} call: implementations must be
 * thread-safe and fast. A capture that throws, or answers with more than {@link
 * io.ax.core.TaskInstance#MAX_TRACE_PARENT_LENGTH} characters, is logged and otherwise ignored: the execution is
 * scheduled without a trace to continue.
 */
@FunctionalInterface
public interface TraceContextCapture {

    /** No trace is ever captured. */
    TraceContextCapture NONE = Optional::empty;

    /**
     * The trace context current on the calling thread as a W3C {@code traceparent}
     * ({@code 00-<trace id>-<span id>-<flags>}), or empty when no span is current.
     */
    Optional<String> capture();
}
