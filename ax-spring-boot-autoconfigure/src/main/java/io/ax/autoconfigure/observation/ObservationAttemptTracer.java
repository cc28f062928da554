package io.ax.autoconfigure.observation;

import io.ax.core.engine.AttemptTracer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.ReceiverContext;

/**
 * Each attempt as a Micrometer {@link Observation} named {@value #NAME}: with Spring Boot's tracing a span per
 * attempt, current on the worker thread while the handler runs, so that its own spans and logs belong to it.
 *
 * <p>Not named {@code ax.execution}: that is the timer {@code AxMetrics} keeps, with its own tags ({@code task} only
 * when asked for); Boot's meter handler makes a timer of every observation under the observation's name, and two
 * timers of one name with other tags clash in Prometheus.
 * Low-cardinality keys: {@code task}, {@code group}, {@code outcome} ({@code success}, {@code failed},
 * {@code timeout}); high-cardinality: {@code instance.id}, {@code attempt}.
 *
 * <p>An attempt of an instance scheduled inside a trace ({@link Attempt#traceParent()}) is observed with a {@link
 * ReceiverContext} whose carrier is that W3C {@code traceparent}: Micrometer Tracing's receiver handler extracts it
 * with the application's propagator, so the attempt's span is a child (kind CONSUMER) of the span that scheduled it,
 * in the same trace. Any other attempt is a plain observation, as before: a root span.
 */
final class ObservationAttemptTracer implements AttemptTracer {

    static final String NAME = "ax.attempt";
    /** The W3C header a stored trace parent stands for. */
    static final String TRACEPARENT = "traceparent";

    private final ObservationRegistry registry;

    ObservationAttemptTracer(ObservationRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Scope begin(Attempt attempt) {
        Observation observation = Observation.createNotStarted(NAME, () -> context(attempt), registry)
                .contextualName("ax " + attempt.task().name())
                .lowCardinalityKeyValue("task", attempt.task().name())
                .lowCardinalityKeyValue("group", attempt.task().group())
                .highCardinalityKeyValue("instance.id", attempt.instanceId())
                .highCardinalityKeyValue("attempt", Integer.toString(attempt.attempt()))
                .start();
        Observation.Scope scope = observation.openScope();
        return outcome -> {
            observation.lowCardinalityKeyValue("outcome", outcome.name());
            if (outcome.error() != null) {
                observation.error(outcome.error());
            }
            scope.close();
            observation.stop();
        };
    }

    private static Observation.Context context(Attempt attempt) {
        String traceParent = attempt.traceParent();
        if (traceParent == null) {
            return new Observation.Context();
        }
        // the getter answers the W3C header only: that is the form the instance keeps (TracerTraceContextCapture)
        ReceiverContext<String> context =
                new ReceiverContext<>((carrier, key) -> TRACEPARENT.equals(key) ? carrier : null);
        context.setCarrier(traceParent);
        return context;
    }
}
