package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * An (instance, attempt) reaches RUNNING a second time only after its first RUNNING was returned unstarted
 * (RUNNING -&gt; SCHEDULED, a stopping node's queue); an attempt that ended (FAILED, TIMEOUT, SUCCESS) or was taken
 * over is never acknowledged again under the same number: its retry is the next attempt.
 */
final class AttemptCheck implements Check {

    @Override
    public String name() {
        return "attempt-twice";
    }

    @Override
    public String promise() {
        return "no (instance, attempt) reaches RUNNING twice without a return to SCHEDULED between";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        List<Violation> out = new ArrayList<>();
        Segments segments = e.segments();
        for (List<Segments.Segment> of : segments.all()) {
            for (int i = 1; i < of.size(); i++) {
                Segments.Segment earlier = null;
                for (int k = i - 1; k >= 0 && earlier == null; k--) {
                    if (of.get(k).attempt() == of.get(i).attempt()) {
                        earlier = of.get(k);
                    }
                }
                if (earlier == null) {
                    continue;
                }
                History.Step end = earlier.end();
                if (end == null || !"SCHEDULED".equals(end.to())) {
                    History.Step again = of.get(i).start();
                    out.add(new Violation(
                            name(),
                            again.instanceId(),
                            "attempt " + again.attempt() + " reached RUNNING again (by " + again.node()
                                    + ") after its first RUNNING (by "
                                    + earlier.start().node() + ") ended "
                                    + (end == null ? "never" : end.from() + " -> " + end.to() + " by " + end.node())
                                    + ", with no return to SCHEDULED between",
                            again.atUs()));
                }
            }
        }
        return out;
    }
}
