package io.ax.bench.delayed;

import io.ax.bench.db.Probe;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A durable scheduler taking one-shot executions at given times, on the shared PostgreSQL. */
interface DelayedSystem extends AutoCloseable {

    /**
     * The three no-op handlers of the run: far-future executions that must not fire during it, the executions whose
     * lateness is measured, and the executions that fall due at once.
     */
    enum Handler {
        PENDING("pending"),
        LATE("late"),
        BURST("burst");

        final String taskName;

        Handler(String taskName) {
            this.taskName = taskName;
        }
    }

    /** The column name. */
    String name();

    /**
     * Creates a fresh schema and starts the scheduler with {@code threads} workers; every execution of a handler
     * reports to its probe.
     */
    void open(int threads, int queue, Map<Handler, Probe> probes) throws Exception;

    /** Schedules one batch of durable executions of {@code handler}, one per time, through the bulk API. */
    void schedule(Handler handler, List<Instant> times) throws Exception;

    /** Executions of {@code handler} that the store does not hold as finished yet. */
    long unfinished(Handler handler) throws Exception;

    /** What the scheduler asked of its store so far, for the progress log; empty when not known. */
    default String storeActivity() {
        return "";
    }

    /** The schema the system writes to. */
    String schema();

    /** Stops the scheduler and drops the schema. */
    @Override
    void close() throws Exception;
}
