package io.ax.autoconfigure.observation;

import io.ax.core.engine.TraceContextCapture;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The caller's trace as Micrometer Tracing sees it: the current span's context, injected by the application's
 * {@link Propagator} and kept in its W3C form ({@code traceparent}). With a propagation that writes no W3C header
 * (B3 only), nothing is captured and the attempts are root spans, as without tracing; only the trace parent is kept,
 * not baggage.
 */
final class TracerTraceContextCapture implements TraceContextCapture {

    private final Tracer tracer;
    private final Propagator propagator;

    TracerTraceContextCapture(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    @Override
    public Optional<String> capture() {
        TraceContext context = tracer.currentTraceContext().context();
        if (context == null) {
            return Optional.empty();
        }
        Map<String, String> headers = new HashMap<>(8);
        propagator.inject(context, headers, Map::put);
        return Optional.ofNullable(headers.get(ObservationAttemptTracer.TRACEPARENT));
    }
}
