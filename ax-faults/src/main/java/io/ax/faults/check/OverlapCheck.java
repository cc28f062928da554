package io.ax.faults.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Two runs of a series (its SERIES and CATCH_UP instances; every task of the workload is {@code concurrent = false})
 * never overlap while the first run's node holds a valid lease: an overlap is allowed only when that node's lease
 * lapsed between the first run's start and the second's ({@link Leases}). Such overlaps are counted and their length
 * reported. A run that recorded no end stopped, at the latest, when its process exited.
 */
final class OverlapCheck implements Check {

    private static final Set<String> SERIES = Set.of("SERIES", "CATCH_UP");

    /** Two overlapping runs of one series; {@code lapsed} when the first one's node lost its lease in between. */
    record Overlap(History.Run first, History.Run second, long overlapUs, boolean lapsed) {}

    @Override
    public String name() {
        return "overlap";
    }

    @Override
    public String promise() {
        return "runs of a concurrent = false series never overlap while the first run's node holds its lease";
    }

    @Override
    public List<Violation> check(Evidence e) {
        List<Violation> out = new ArrayList<>();
        for (Overlap o : overlaps(e)) {
            if (!o.lapsed()) {
                History.Run a = o.first();
                History.Run b = o.second();
                out.add(new Violation(
                        name(),
                        b.instanceId(),
                        a.task() + ": a run on " + b.node() + " (attempt " + b.attempt() + ") started at "
                                + Times.of(b.startUs()) + " while the run of instance " + a.instanceId() + " (attempt "
                                + a.attempt() + ") on " + a.node() + " went on until "
                                + Times.of(e.history().endOf(a)) + ", and " + a.node()
                                + " held its lease throughout; overlap " + Times.millis(o.overlapUs()),
                        b.startUs(),
                        a.instanceId()));
            }
        }
        return out;
    }

    /** Every overlap of two runs of one series. */
    static List<Overlap> overlaps(Evidence e) {
        History h = e.history();
        Map<String, List<History.Run>> byTask = new HashMap<>();
        for (History.Run r : h.runs()) {
            History.Instance in = h.instances().get(r.instanceId());
            if (in != null && SERIES.contains(in.origin())) {
                byTask.computeIfAbsent(r.task(), k -> new ArrayList<>()).add(r);
            }
        }
        Leases leases = new Leases(e);
        List<Overlap> out = new ArrayList<>();
        for (List<History.Run> runs : byTask.values()) { // in order of their start
            for (Concurrent.Start s : Concurrent.starts(h, runs)) {
                History.Run b = s.run();
                for (History.Run a : s.going()) {
                    long overlap = Math.min(h.endOf(a), h.endOf(b)) - b.startUs();
                    out.add(new Overlap(a, b, overlap, leases.lostDuring(a, b.startUs())));
                }
            }
        }
        return out;
    }
}
