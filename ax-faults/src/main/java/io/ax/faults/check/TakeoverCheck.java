package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * A running attempt is taken over (RUNNING -&gt; FAILED by another node) only once its node's lease lapsed: a node
 * whose heartbeats never stopped for a lease, from a while before the takeover until it, was alive, and its
 * handler, still running, now runs twice. The while is the lease, a heartbeat and a second: the leader judges on a
 * view of the heartbeats that is up to a round old, so a node that beats again just before the takeover is not
 * counted against it.
 */
final class TakeoverCheck implements Check {

    private static final long SLACK_US = 1_000_000;

    @Override
    public String name() {
        return "takeover-of-live";
    }

    @Override
    public String promise() {
        return "a running attempt is taken over only after its node's lease lapsed";
    }

    @Override
    public List<Violation> check(Evidence e) {
        History h = e.history();
        long lease = e.judgement().leaseUs();
        long window = lease + e.judgement().heartbeat().toNanos() / 1_000 + SLACK_US;
        List<Violation> out = new ArrayList<>();
        for (List<Segments.Segment> of : e.segments().all()) {
            for (Segments.Segment s : of) {
                History.Step end = s.end();
                if (end == null || end.node().equals(s.start().node()) || !"FAILED".equals(end.to())) {
                    continue; // ended by its own node: an attempt's end, or its next process recovering it
                }
                long at = end.atUs();
                History.Run alive = null;
                for (History.Run r : s.runs()) {
                    if (h.endOf(r) > at) {
                        alive = r;
                    }
                }
                if (alive != null && !Leases.lapsed(h.beats(s.start().node()), at - window, at, lease)) {
                    out.add(new Violation(
                            name(),
                            s.start().instanceId(),
                            "attempt " + s.attempt() + " running on "
                                    + s.start().node() + " was taken over by "
                                    + end.node() + " at " + Times.of(at) + " (" + end.reason() + ") while "
                                    + s.start().node() + " held its lease and its handler ran on until "
                                    + Times.of(h.endOf(alive)),
                            at));
                }
            }
        }
        return out;
    }
}
