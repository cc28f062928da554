package io.ax.faults.check;

import io.ax.core.InstanceState;
import java.util.ArrayList;
import java.util.List;

/**
 * Every instance's audit trail is a path of the state machine: it begins with the creation, each row starts where
 * the last ended, moves along an arrow of {@link InstanceState#canMoveTo} (or is a note, {@link InstanceState#isNote}: a
 * reschedule, a wait for a permit), and ends in the instance's state; every instance has a trail and every trail an instance.
 */
final class TrailCheck implements Check {

    @Override
    public String name() {
        return "trail";
    }

    @Override
    public String promise() {
        return "every audit trail is a path of the state machine ending in the instance's state";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        List<Violation> out = new ArrayList<>();
        for (History.Instance in : h.instances().values()) {
            List<History.Step> trail = h.trail(in.id());
            String problem = trail.isEmpty() ? "has no audit trail" : problem(trail, in.state());
            if (problem != null) {
                long at = trail.isEmpty()
                        ? in.scheduledUs()
                        : trail.get(trail.size() - 1).atUs();
                out.add(new Violation(name(), in.id(), problem, at));
            }
        }
        for (String id : h.audited()) {
            if (!h.instances().containsKey(id)) {
                out.add(new Violation(
                        name(),
                        id,
                        "audited, but no such instance",
                        h.trail(id).get(0).atUs()));
            }
        }
        return out;
    }

    private static String problem(List<History.Step> trail, String current) {
        if (trail.get(0).from() != null || !"CREATED".equals(trail.get(0).to())) {
            return "does not begin with its creation";
        }
        for (int i = 1; i < trail.size(); i++) {
            History.Step step = trail.get(i);
            if (!trail.get(i - 1).to().equals(step.from())) {
                return "step " + i + " (" + step.from() + " -> " + step.to() + ") does not start where step " + (i - 1)
                        + " ended (" + trail.get(i - 1).to() + ")";
            }
            InstanceState from = InstanceState.valueOf(step.from());
            InstanceState to = InstanceState.valueOf(step.to());
            boolean reschedule = InstanceState.isNote(from, to);
            if (!reschedule && !from.canMoveTo(to)) {
                return "step " + i + " (" + from + " -> " + to + ") is no arrow of the state machine";
            }
        }
        String last = trail.get(trail.size() - 1).to();
        return last.equals(current) ? null : "the trail ends in " + last + " but the instance is " + current;
    }
}
