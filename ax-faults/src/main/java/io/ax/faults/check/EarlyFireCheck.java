package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * No fire of a series starts before its fire time by the database's clock, beyond the tolerance for the leader's
 * clock offset: fire-time decisions use the cluster's clock, so a node whose own clock is ahead (or jumped) must not
 * fire early (docs/design.md, "Time").
 */
final class EarlyFireCheck implements Check {

    @Override
    public String name() {
        return "early-fire";
    }

    @Override
    public String promise() {
        return "no series fire starts before its fire time by the database's clock";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        long tolerance = e.judgement().earlyTolerance().toNanos() / 1_000;
        List<Violation> out = new ArrayList<>();
        for (History.Instance in : h.instances().values()) {
            if (!"SERIES".equals(in.origin())) {
                continue;
            }
            List<History.Run> runs = h.runs(in.id());
            if (!runs.isEmpty() && runs.get(0).startUs() < in.scheduledUs() - tolerance) {
                History.Run first = runs.get(0);
                out.add(new Violation(
                        name(),
                        in.id(),
                        "fire time " + in.task() + " @ " + Times.of(in.scheduledUs()) + " started at "
                                + Times.of(first.startUs()) + " on " + first.node() + ", "
                                + Times.millis(in.scheduledUs() - first.startUs())
                                + " early by the database's clock (tolerance " + Times.millis(tolerance) + "); "
                                + claimedBy(h.trail(in.id())),
                        first.startUs()));
            }
        }
        return out;
    }

    /** Which node decided it: the node that wrote its claim (or, in an earlier version's trail, its dispatch). */
    static String claimedBy(List<History.Step> trail) {
        for (History.Step s : trail) {
            if ("RUNNING".equals(s.to()) || "DISPATCHED".equals(s.to())) {
                return "claimed by " + s.node() + " at " + Times.of(s.atUs());
            }
        }
        return "never claimed";
    }
}
