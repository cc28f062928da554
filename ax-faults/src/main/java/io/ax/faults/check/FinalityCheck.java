package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Once the cluster was quiet and had its settle time, everything due by the mark is final. */
final class FinalityCheck implements Check {

    private static final Set<String> FINAL = Set.of("SUCCESS", "DEAD", "CANCELLED", "SKIPPED");

    @Override
    public String name() {
        return "not-final";
    }

    @Override
    public String promise() {
        return "everything due before the cluster was quiet is final after the settle time";
    }

    @Override
    public List<Violation> check(Evidence e) {
        List<Violation> out = new ArrayList<>();
        for (History.Instance in : e.history().instances().values()) {
            if (in.scheduledUs() <= e.judgement().markUs() && !FINAL.contains(in.state())) {
                out.add(new Violation(
                        name(),
                        in.id(),
                        in.task() + " (" + in.origin() + ") due " + Times.of(in.scheduledUs()) + " is still "
                                + in.state() + " (attempt " + in.attempt() + ") after the settle time",
                        in.scheduledUs()));
            }
        }
        return out;
    }
}
