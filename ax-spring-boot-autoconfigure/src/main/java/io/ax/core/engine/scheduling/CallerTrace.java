package io.ax.core.engine.scheduling;

import io.ax.core.TaskInstance;
import io.ax.core.engine.TraceContextCapture;
import io.ax.core.engine.threads.EngineLog;
import java.lang.System.Logger.Level;
import java.util.Optional;

/**
 * The trace a caller of {@link io.ax.core.AxScheduler} is in, as its instances keep it: what the {@link
 * TraceContextCapture} answers, or null when it answers nothing, something a store cannot keep, or throws. Tracing
 * never fails a schedule. Thread-safe.
 */
final class CallerTrace {

    private static final System.Logger LOG = EngineLog.get();

    private final TraceContextCapture capture;

    CallerTrace(TraceContextCapture capture) {
        this.capture = capture;
    }

    /** The calling thread's trace parent, or null. */
    String current() {
        Optional<String> captured;
        try {
            captured = capture.capture();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The trace context capture failed; scheduling without a trace: {0}", e.toString());
            return null;
        }
        if (captured == null || captured.isEmpty()) {
            return null;
        }
        String value = captured.get();
        if (value.isEmpty() || value.length() > TaskInstance.MAX_TRACE_PARENT_LENGTH) {
            LOG.log(
                    Level.WARNING,
                    "The trace context capture answered {0} characters, not 1 to {1}; scheduling without a trace",
                    value.length(),
                    TaskInstance.MAX_TRACE_PARENT_LENGTH);
            return null;
        }
        return value;
    }
}
