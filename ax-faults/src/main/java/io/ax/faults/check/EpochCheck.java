package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * The epoch (fencing token) written on an instance row never goes back: a write carrying an older epoch than one
 * the row already had is a deposed leader's write that got through its fence.
 */
final class EpochCheck implements Check {

    @Override
    public String name() {
        return "epoch";
    }

    @Override
    public String promise() {
        return "no row is written under an epoch older than one already used for it";
    }

    @Override
    public List<Violation> check(Evidence e) {
        List<Violation> out = new ArrayList<>();
        for (History.EpochRegression r : e.history().epochRegressions()) {
            out.add(new Violation(
                    name(),
                    r.instanceId(),
                    "written " + r.fromState() + " -> " + r.toState() + " under epoch " + r.epoch()
                            + " after the row had epoch " + r.highestBefore() + " (the lease's epoch then: "
                            + r.leaderEpoch() + ")",
                    r.atUs()));
        }
        return out;
    }
}
