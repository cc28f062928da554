package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * A handler runs once per acknowledged start, on the node that acknowledged it, and never without one: so a fire
 * time (or any instance) whose handler started twice has a recorded takeover or end between the two starts. Also
 * fails a start returned to SCHEDULED as "never started" whose handler had in fact started.
 */
final class DoubleStartCheck implements Check {

    @Override
    public String name() {
        return "double-start";
    }

    @Override
    public String promise() {
        return "each acknowledged start runs its handler once, on its node; a second run needs a takeover or end between";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        List<Violation> out = new ArrayList<>();
        for (List<Segments.Segment> of : e.segments().all()) {
            for (Segments.Segment s : of) {
                History.Step start = s.start();
                History.Instance in = h.instances().get(start.instanceId());
                String what = in != null && ("SERIES".equals(in.origin()) || "CATCH_UP".equals(in.origin()))
                        ? "fire time " + in.task() + " @ " + Times.of(in.scheduledUs())
                        : "instance";
                if (s.runs().size() > 1) {
                    out.add(new Violation(
                            name(),
                            start.instanceId(),
                            what + ": attempt " + start.attempt() + " ran "
                                    + s.runs().size()
                                    + " times under one acknowledgement (RUNNING by " + start.node() + " at "
                                    + Times.of(start.atUs()) + "), with no takeover or end between: "
                                    + describe(s.runs(), h),
                            s.runs().get(1).startUs()));
                }
                for (History.Run run : s.runs()) {
                    if (!run.node().equals(start.node())) {
                        out.add(new Violation(
                                name(),
                                start.instanceId(),
                                what + ": attempt " + start.attempt() + " ran on " + run.node() + " at "
                                        + Times.of(run.startUs()) + " but " + start.node() + " acknowledged it",
                                run.startUs()));
                    }
                }
                History.Step end = s.end();
                if (end != null && "SCHEDULED".equals(end.to()) && !s.runs().isEmpty()) {
                    out.add(new Violation(
                            name(),
                            start.instanceId(),
                            what + ": attempt " + start.attempt() + " was returned to SCHEDULED as never started ("
                                    + end.reason() + ", at " + Times.of(end.atUs()) + ") but its handler started at "
                                    + Times.of(s.runs().get(0).startUs()),
                            end.atUs()));
                }
            }
        }
        for (History.Run run : e.segments().unacknowledged()) {
            out.add(new Violation(
                    name(),
                    run.instanceId(),
                    "attempt " + run.attempt() + " of " + run.task() + " ran on " + run.node() + " at "
                            + Times.of(run.startUs()) + " with no acknowledged RUNNING of that attempt before it",
                    run.startUs()));
        }
        return out;
    }

    static String describe(List<History.Run> runs, History h) {
        List<String> parts = new ArrayList<>();
        for (History.Run r : runs) {
            long end = h.endOf(r);
            parts.add(r.node() + " (pid " + r.pid() + ") " + Times.of(r.startUs()) + " to "
                    + (end == Long.MAX_VALUE ? "?" : Times.of(end)) + (r.endUs() == null ? " (no end recorded)" : ""));
        }
        return String.join("; ", parts);
    }
}
