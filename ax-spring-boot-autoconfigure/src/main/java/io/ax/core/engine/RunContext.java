package io.ax.core.engine;

import io.ax.core.AxContext;
import java.time.Instant;
import java.util.Map;

/** The {@link AxContext} of one attempt. */
record RunContext(
        String taskName,
        String instanceId,
        int attempt,
        Instant scheduledTime,
        String nodeId,
        Map<String, String> params)
        implements AxContext {}
