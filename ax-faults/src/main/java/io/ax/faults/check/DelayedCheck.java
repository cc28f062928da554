package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * Delayed tasks (the workload's and the sample's order closes): every one due by the mark and not cancelled ran; none
 * ran earlier than its due time on the database's clock, beyond the tolerance for the leader's clock offset; none ran
 * after it was cancelled.
 */
final class DelayedCheck implements Check {

    @Override
    public String name() {
        return "delayed";
    }

    @Override
    public String promise() {
        return "every due PERSISTENT delayed task runs, never early by the database's clock, never after its cancel";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        long tolerance = e.judgement().earlyTolerance().toNanos() / 1_000;
        List<Violation> out = new ArrayList<>();
        for (History.Instance in : h.instances().values()) {
            if (!"DELAYED".equals(in.origin())) {
                continue;
            }
            List<History.Run> runs = h.runs(in.id());
            long cancelledAt = cancelledAt(h.trail(in.id()));
            if (runs.isEmpty()) {
                if (cancelledAt < 0 && in.scheduledUs() <= e.judgement().markUs()) {
                    out.add(new Violation(
                            name(),
                            in.id(),
                            in.task() + " due " + Times.of(in.scheduledUs()) + " never ran; it is " + in.state(),
                            in.scheduledUs()));
                }
                continue;
            }
            History.Run first = runs.get(0);
            if (first.startUs() < in.scheduledUs() - tolerance) {
                out.add(new Violation(
                        name(),
                        in.id(),
                        in.task() + " due " + Times.of(in.scheduledUs()) + " ran early, at " + Times.of(first.startUs())
                                + " on " + first.node() + ": " + Times.millis(in.scheduledUs() - first.startUs())
                                + " before its time by the database's clock (tolerance "
                                + Times.millis(tolerance) + "); "
                                + EarlyFireCheck.claimedBy(h.trail(in.id())),
                        first.startUs()));
            }
            if (cancelledAt >= 0) {
                for (History.Run r : runs) {
                    if (r.startUs() > cancelledAt) {
                        out.add(new Violation(
                                name(),
                                in.id(),
                                in.task() + " ran on " + r.node() + " at " + Times.of(r.startUs())
                                        + " after it was cancelled at " + Times.of(cancelledAt),
                                r.startUs()));
                    }
                }
            }
        }
        return out;
    }

    /** When the trail moved to CANCELLED, or -1. */
    private static long cancelledAt(List<History.Step> trail) {
        for (History.Step s : trail) {
            if ("CANCELLED".equals(s.to())) {
                return s.atUs();
            }
        }
        return -1;
    }
}
