package io.ax.core.engine;

import io.ax.core.InstanceState;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the store says of one run of a workflow.
 *
 * @param runId the run id: the id of the root's instance that started it
 * @param root the workflow's root task
 * @param startedAt the scheduled time of the root's instance
 * @param state {@code running} while a step is waiting or in flight, {@code succeeded} once every step succeeded,
 *     {@code blocked} when a step did not succeed (it is DEAD, CANCELLED or SKIPPED and blocks what follows it)
 * @param steps per task of the workflow (upstream first), the state of its instance in this run; a task that has
 *     none yet is absent
 */
public record WorkflowRun(
        String runId, String root, Instant startedAt, String state, Map<String, InstanceState> steps) {

    public WorkflowRun {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(state, "state");
        steps = Collections.unmodifiableMap(new LinkedHashMap<>(steps)); // in the workflow's order
    }
}
