package io.ax.autoconfigure.endpoint;

import io.ax.core.engine.AxEngine;
import io.ax.core.engine.WorkflowGraph;
import io.ax.core.engine.WorkflowRun;
import io.ax.core.engine.workflows.Workflows;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code /actuator/ax/workflows}: each workflow as a graph, with the state of its newest runs. */
public final class WorkflowDescriptors {

    /** How many runs of each workflow the endpoint shows. */
    static final int RECENT_RUNS = 10;

    private WorkflowDescriptors() {}

    /** Every workflow, by root name. */
    public record Workflows(List<Workflow> workflows) {}

    /**
     * One workflow.
     *
     * @param root the task whose fire starts a run
     * @param nodes its tasks, upstream first
     * @param edges each edge from an upstream task to the task that waits for it
     * @param runs its newest runs, newest first
     */
    public record Workflow(String root, List<String> nodes, List<Edge> edges, List<Run> runs) {}

    /** {@code to} waits for {@code from}. */
    public record Edge(String from, String to) {}

    /**
     * One run.
     *
     * @param runId the run id (the root instance's id), as {@code AxContext.runId()} gives it
     * @param startedAt the root instance's scheduled time
     * @param state {@code running}, {@code succeeded} or {@code blocked}
     * @param steps per task that has an instance in the run, its state
     */
    public record Run(String runId, Instant startedAt, String state, Map<String, String> steps) {}

    static Workflows of(AxEngine engine) {
        List<Workflow> workflows = engine.workflowGraph().workflows().stream()
                .map(w -> workflow(engine, w))
                .toList();
        return new Workflows(workflows);
    }

    private static Workflow workflow(AxEngine engine, WorkflowGraph.Workflow w) {
        List<Run> runs = engine.recentRuns(w.root(), RECENT_RUNS).stream()
                .map(WorkflowDescriptors::run)
                .toList();
        List<Edge> edges =
                w.edges().stream().map(e -> new Edge(e.from(), e.to())).toList();
        return new Workflow(w.root(), w.tasks(), edges, runs);
    }

    private static Run run(WorkflowRun r) {
        Map<String, String> steps = new LinkedHashMap<>();
        r.steps().forEach((task, state) -> steps.put(task, state.name()));
        return new Run(r.runId(), r.startedAt(), r.state(), steps);
    }
}
