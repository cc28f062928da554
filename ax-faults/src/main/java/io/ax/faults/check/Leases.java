package io.ax.faults.check;

import java.util.List;

/**
 * Whether a node held its lease over a span of time, judged from its heartbeats: it holds it while its last heartbeat
 * is younger than the lease and it has not left. This is the allowance of the checks that judge runs going at once
 * (a series' overlap, a limit's excess): a run that started while another was still going breaks no promise when the
 * other's node lost its lease in between, for then the leader could take that node's work over, as at-least-once
 * allows for a node that froze or was cut off. The rate check asks it of a start's own node (a frozen node starts its
 * handler late). Stateless apart from what it reads.
 */
final class Leases {

    private final History history;
    private final long leaseUs;

    Leases(Evidence e) {
        this.history = e.history();
        this.leaseUs = e.judgement().leaseUs();
    }

    /** Whether the node of {@code run} lost its lease at some moment from the run's start to {@code toUs}. */
    boolean lostDuring(History.Run run, long toUs) {
        return lapsed(history.beats(run.node()), run.startUs(), toUs, leaseUs);
    }

    /** Whether {@code node} lost its lease at some moment from {@code fromUs} to {@code toUs}. */
    boolean lostBetween(String node, long fromUs, long toUs) {
        return lapsed(history.beats(node), fromUs, toUs, leaseUs);
    }

    /**
     * Whether a node's lease lapsed at some moment from {@code fromUs} to {@code toUs}: no heartbeat for a lease, or
     * a removal of its row (it left).
     */
    static boolean lapsed(List<History.Beat> beats, long fromUs, long toUs, long leaseUs) {
        long last = Long.MIN_VALUE;
        int i = 0;
        for (; i < beats.size() && beats.get(i).atUs() <= fromUs; i++) {
            last = beats.get(i).op() == 'D' ? Long.MIN_VALUE : beats.get(i).atUs();
        }
        if (last == Long.MIN_VALUE || fromUs - last >= leaseUs) {
            return true;
        }
        for (; i < beats.size() && beats.get(i).atUs() <= toUs; i++) {
            History.Beat b = beats.get(i);
            if (b.op() == 'D' || b.atUs() - last >= leaseUs) {
                return true;
            }
            last = b.atUs();
        }
        return toUs - last >= leaseUs;
    }
}
