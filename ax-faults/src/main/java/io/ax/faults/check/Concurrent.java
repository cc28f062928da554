package io.ax.faults.check;

import java.util.ArrayList;
import java.util.List;

/**
 * The runs of one kind (a series, a limit's key) in start order, each with the runs of the kind still going when it
 * started: those whose end ({@link History#endOf}, the process's exit for a run that recorded none) is later than its
 * start. A run of the same instance and attempt is left out: one attempt run twice is the double-start check's.
 */
final class Concurrent {

    /** A run's start, with the runs of its kind going then, in their start order. */
    record Start(History.Run run, List<History.Run> going) {}

    private Concurrent() {}

    /** @param runs the runs of one kind, in start order (as {@link History#runs()} gives them) */
    static List<Start> starts(History h, List<History.Run> runs) {
        List<Start> out = new ArrayList<>(runs.size());
        List<History.Run> open = new ArrayList<>();
        for (History.Run b : runs) {
            open.removeIf(a -> h.endOf(a) <= b.startUs());
            List<History.Run> going = new ArrayList<>(open.size());
            for (History.Run a : open) {
                if (!(a.instanceId().equals(b.instanceId()) && a.attempt() == b.attempt())) {
                    going.add(a);
                }
            }
            out.add(new Start(b, going));
            open.add(b);
        }
        return out;
    }
}
