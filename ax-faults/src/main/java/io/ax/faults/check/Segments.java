package io.ax.faults.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The acknowledged starts of each instance and the runs under each. A segment begins where the audit trail enters
 * RUNNING (the owner's acknowledgement, written before its handler may run) and ends with the next row of the trail
 * (the attempt's end, a takeover, or a return to SCHEDULED). Each recorded run belongs to the latest segment of its
 * attempt that began before it: a handler runs once per acknowledgement, so a segment with two runs is an attempt
 * run twice, and a run with no segment ran without one.
 */
final class Segments {

    /** How much earlier than its segment's RUNNING row a run may seem to start: both are the database's clock. */
    private static final long SLACK_US = 1_000;

    /**
     * One acknowledged start.
     *
     * @param start the audit row entering RUNNING
     * @param end the row that left RUNNING, or null when the instance is still RUNNING
     */
    record Segment(History.Step start, History.Step end, List<History.Run> runs) {

        int attempt() {
            return start.attempt();
        }

        /**
         * Whether the start was ended as its node's loss: by another node (the leader, for a node it found gone), or
         * by the node's next process recovering what its last one left running.
         */
        boolean takenOver() {
            return end != null
                    && (!end.node().equals(start.node()) || end.reason().contains("stopped while running"));
        }
    }

    private final Map<String, List<Segment>> byInstance = new HashMap<>();
    private final List<History.Run> unacknowledged = new ArrayList<>();

    Segments(History history) {
        for (String id : history.audited()) {
            List<History.Step> trail = history.trail(id);
            List<Segment> segments = new ArrayList<>();
            for (int i = 0; i < trail.size(); i++) {
                if ("RUNNING".equals(trail.get(i).to())) {
                    History.Step end = i + 1 < trail.size() ? trail.get(i + 1) : null;
                    segments.add(new Segment(trail.get(i), end, new ArrayList<>()));
                }
            }
            if (!segments.isEmpty()) {
                byInstance.put(id, segments);
            }
        }
        for (History.Run run : history.runs()) {
            Segment owner = null;
            for (Segment s : byInstance.getOrDefault(run.instanceId(), List.of())) {
                if (s.attempt() == run.attempt() && s.start().atUs() <= run.startUs() + SLACK_US) {
                    owner = s;
                }
            }
            if (owner == null) {
                unacknowledged.add(run);
            } else {
                owner.runs().add(run);
            }
        }
    }

    List<Segment> of(String instanceId) {
        return byInstance.getOrDefault(instanceId, List.of());
    }

    Iterable<List<Segment>> all() {
        return byInstance.values();
    }

    /** Runs with no acknowledged start of their attempt before them. */
    List<History.Run> unacknowledged() {
        return unacknowledged;
    }
}
