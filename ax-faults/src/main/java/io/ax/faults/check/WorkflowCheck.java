package io.ax.faults.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The workload's workflow ({@code faults-flow-root} -&gt; {@code faults-flow-step} -&gt; {@code faults-flow-last}):
 * a step's handler starts only after its upstream succeeded in the same run, and an upstream that succeeded well
 * before the mark has its next step created in that run.
 */
final class WorkflowCheck implements Check {

    /** Each step of the workload's workflow and its one upstream. */
    static final Map<String, String> UPSTREAM = Map.of(
            "faults-flow-step", "faults-flow-root",
            "faults-flow-last", "faults-flow-step");

    /** How long after its upstream's success a step may still be missing at the mark. */
    private static final long CREATE_BOUND_US = 10_000_000;

    @Override
    public String name() {
        return "workflow";
    }

    @Override
    public String promise() {
        return "a workflow step runs after its upstream succeeded in its run, and is created once it did";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        // (task, run) -> instance: a step is keyed by its run, the root's own id is the run's
        Map<String, History.Instance> byRun = new HashMap<>();
        for (History.Instance in : h.instances().values()) {
            if ("faults-flow-root".equals(in.task())) {
                byRun.put(in.task() + "|" + in.id(), in);
            } else if (UPSTREAM.containsKey(in.task())
                    && in.key() != null
                    && in.key().startsWith("@run:")) {
                byRun.put(in.task() + "|" + in.key().substring(5), in);
            }
        }
        List<Violation> out = new ArrayList<>();
        for (Map.Entry<String, History.Instance> entry : byRun.entrySet()) {
            History.Instance in = entry.getValue();
            String run = entry.getKey().substring(entry.getKey().indexOf('|') + 1);
            long succeeded = successAt(h.trail(in.id()));
            for (Map.Entry<String, String> edge : UPSTREAM.entrySet()) {
                if (edge.getValue().equals(in.task())
                        && succeeded >= 0
                        && succeeded < e.judgement().markUs() - CREATE_BOUND_US
                        && !byRun.containsKey(edge.getKey() + "|" + run)) {
                    out.add(new Violation(
                            name(),
                            in.id(),
                            in.task() + " succeeded at " + Times.of(succeeded) + " in run " + run + " but "
                                    + edge.getKey() + " was never created in that run",
                            succeeded));
                }
            }
            String upstream = UPSTREAM.get(in.task());
            List<History.Run> runs = h.runs(in.id());
            if (upstream != null && !runs.isEmpty()) {
                History.Instance up = byRun.get(upstream + "|" + run);
                long upSucceeded = up == null ? -1 : successAt(h.trail(up.id()));
                if (upSucceeded < 0 || runs.get(0).startUs() < upSucceeded) {
                    out.add(new Violation(
                            name(),
                            in.id(),
                            in.task() + " started at " + Times.of(runs.get(0).startUs()) + " in run " + run
                                    + " but its upstream " + upstream + " "
                                    + (upSucceeded < 0
                                            ? "never succeeded"
                                            : "succeeded only at " + Times.of(upSucceeded)),
                            runs.get(0).startUs()));
                }
            }
        }
        return out;
    }

    private static long successAt(List<History.Step> trail) {
        for (History.Step s : trail) {
            if ("SUCCESS".equals(s.to())) {
                return s.atUs();
            }
        }
        return -1;
    }
}
