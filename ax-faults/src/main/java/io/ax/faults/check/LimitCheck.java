package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * A limit across the cluster is never exceeded while the nodes holding its permits hold their leases: at most N runs
 * of a task with {@code maxConcurrent = N} or of a group with {@code cluster-limit: N} go at once, at most one per
 * mutex key, on all nodes together ({@link LimitedRuns} counts them per key, on the database's clock). A run beyond
 * the limit is allowed only when, without the runs going whose nodes lost their lease since those runs started
 * ({@link Leases}), it is within the limit: the engine frees a permit when the leader takes its attempt over, while
 * the handler of a frozen or cut-off node may run on. Such excesses are counted in the report, with their longest
 * overlap. The limits judged are those the nodes recorded (none configured: nothing judged). That no limited
 * instance is lost while it waits for a permit is the {@code delayed} and {@code not-final} checks' (the workload's
 * limited tasks are delayed tasks).
 */
final class LimitCheck implements Check {

    @Override
    public String name() {
        return "limit";
    }

    @Override
    public String promise() {
        return "at most N runs of a task or group limited to N, and one per mutex key, go at once across the cluster"
                + " while their nodes hold their leases";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        List<Violation> out = new ArrayList<>();
        for (LimitedRuns.Excess x : LimitedRuns.of(e).excesses()) {
            if (x.allowed()) {
                continue;
            }
            History.Run b = x.run();
            StringBuilder others = new StringBuilder();
            for (History.Run a : x.held()) {
                others.append(others.isEmpty() ? "" : "; ")
                        .append(a.task())
                        .append(' ')
                        .append(a.instanceId())
                        .append(" (attempt ")
                        .append(a.attempt())
                        .append(") on ")
                        .append(a.node())
                        .append(" from ")
                        .append(Times.of(a.startUs()))
                        .append(" to ")
                        .append(Times.of(h.endOf(a)));
            }
            out.add(new Violation(
                    name(),
                    b.instanceId(),
                    x.key() + " (" + x.permits() + " at once): " + b.task() + " (attempt " + b.attempt() + ") on "
                            + b.node() + " started at " + Times.of(b.startUs()) + " while "
                            + x.held().size()
                            + " run(s) of it went on, their nodes holding their leases throughout: " + others
                            + (x.lapsed().isEmpty()
                                    ? ""
                                    : " (and " + x.lapsed().size() + " of a node that lost its lease)")
                            + "; overlap " + Times.millis(x.overlapUs()),
                    b.startUs(),
                    x.held().get(0).instanceId()));
        }
        return out;
    }
}
