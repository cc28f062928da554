package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * A rate across the cluster is never exceeded: of a task with {@code rate = "N/W"}, at most N handler starts in any
 * window of W less {@link RatedStarts#TOLERANCE_US}, on all nodes together, by the runs' own start records on the
 * database's clock ({@link RatedStarts} counts them). The engine is exact at the claims; the tolerance is the dispatch
 * delay between a claim and its handler's start. A start beyond the rate is allowed only when it is within the rate
 * without the late starts of its window: those that started more than the tolerance after their claim (the audit
 * trail's), and those whose nodes lost their lease or were hit by a fault in the window before them ({@link Leases},
 * {@link FaultWindows#nearNode}), for a frozen or cut-off node's handler starts long after its claim. Such excesses are
 * counted in the report, with the most starts seen in any full window and the longest lag of a start after its claim.
 * That no rated instance is lost while it waits is the {@code delayed} and {@code not-final} checks' (the workload's
 * rated task is a delayed task).
 */
final class RateCheck implements Check {

    @Override
    public String name() {
        return "rate";
    }

    @Override
    public String promise() {
        return "at most N handler starts of a task with a rate of N per W in any window of W less "
                + Times.millis(RatedStarts.TOLERANCE_US) + " (a start lags its claim), across the cluster, but for"
                + " starts later than that after their claim or of a node cut off or frozen just before";
    }

    @Override
    public List<Violation> check(Evidence e) {
        List<Violation> out = new ArrayList<>();
        for (RatedStarts.Excess x : RatedStarts.of(e).excesses()) {
            if (x.allowed()) {
                continue;
            }
            History.Run b = x.run();
            History.Run first = x.starts().get(0).run();
            long judgedUs = x.windowUs() - RatedStarts.TOLERANCE_US;
            StringBuilder starts = new StringBuilder();
            int late = 0;
            for (RatedStarts.Start s : x.starts()) {
                History.Run r = s.run();
                starts.append(starts.isEmpty() ? "" : "; ")
                        .append(r.instanceId())
                        .append(" (attempt ")
                        .append(r.attempt())
                        .append(") on ")
                        .append(r.node())
                        .append(" at ")
                        .append(Times.of(r.startUs()))
                        .append(
                                s.lagUs() < 0
                                        ? ", no claim in its trail"
                                        : ", " + Times.millis(s.lagUs()) + " after its claim")
                        .append(s.cutOff() ? ", its node cut off or frozen just before" : "");
                late += s.late() ? 1 : 0;
            }
            out.add(new Violation(
                    name(),
                    b.instanceId(),
                    x.key() + " (" + x.permits() + " per " + Times.millis(x.windowUs()) + "): "
                            + x.starts().size()
                            + " handler starts of " + b.task() + " in [" + Times.of(first.startUs()) + ", "
                            + Times.of(first.startUs() + judgedUs) + ") (its window less "
                            + Times.millis(RatedStarts.TOLERANCE_US) + " for the dispatch delay), " + late
                            + " of them late (claimed more than that before, or on a node cut off or frozen in the"
                            + " window before): " + starts,
                    b.startUs(),
                    first.instanceId()));
        }
        return out;
    }
}
