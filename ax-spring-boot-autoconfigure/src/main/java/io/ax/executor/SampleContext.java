package io.ax.executor;

import io.ax.core.AxContext;
import io.ax.core.AxTask;
import java.time.Instant;
import java.util.Map;

/** A stand-in context for checking a task when it is defined, before any instance exists. */
record SampleContext(String taskName, Map<String, String> params) implements AxContext {

    static SampleContext of(AxTask task) {
        return new SampleContext(task.name(), task.params());
    }

    @Override
    public String instanceId() {
        return "sample";
    }

    @Override
    public int attempt() {
        return 1;
    }

    @Override
    public Instant scheduledTime() {
        return Instant.EPOCH;
    }

    @Override
    public String nodeId() {
        return "sample";
    }
}
