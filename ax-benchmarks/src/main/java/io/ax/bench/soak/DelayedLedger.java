package io.ax.bench.soak;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Every delayed execution of the run by its sequence number: whether {@code scheduleAll} accepted it, when it is due,
 * whether it ran and whether it ran twice. About 10 bytes per execution (36,000 in a default 30-minute run), so it
 * keeps all of them. Thread-safe: guarded by this object's monitor.
 */
final class DelayedLedger {

    private long[] dueMillis = new long[4_096];
    private final BitSet accepted = new BitSet();
    private final BitSet ran = new BitSet();
    private int next;
    private long refused;

    /** Reserves {@code n} sequence numbers; returns the first. */
    synchronized int reserve(int n) {
        int first = next;
        next += n;
        if (next > dueMillis.length) {
            dueMillis = Arrays.copyOf(dueMillis, Math.max(next, dueMillis.length * 2));
        }
        return first;
    }

    synchronized void accepted(int seq, long due) {
        dueMillis[seq] = due;
        accepted.set(seq);
    }

    /** {@code scheduleAll} threw: these may or may not have been written (a commit in doubt), so none is expected. */
    synchronized void refused(int n) {
        refused += n;
    }

    /** Records a run; returns whether this execution had run before. */
    synchronized boolean ran(int seq) {
        if (seq < 0 || seq >= next) {
            throw new IllegalStateException("delayed execution " + seq + " was never scheduled");
        }
        boolean before = ran.get(seq);
        ran.set(seq);
        return before;
    }

    synchronized long acceptedCount() {
        return accepted.cardinality();
    }

    synchronized long refusedCount() {
        return refused;
    }

    /** Executions that ran although their {@code scheduleAll} threw: its write had committed before the error. */
    synchronized long ranUnacceptedCount() {
        BitSet unaccepted = (BitSet) ran.clone();
        unaccepted.andNot(accepted);
        return unaccepted.cardinality();
    }

    /** Accepted executions due at or before {@code cutoffMillis} that have not run. */
    synchronized long lostBefore(long cutoffMillis) {
        long lost = 0;
        for (int seq = accepted.nextSetBit(0); seq >= 0; seq = accepted.nextSetBit(seq + 1)) {
            if (dueMillis[seq] <= cutoffMillis && !ran.get(seq)) {
                lost++;
            }
        }
        return lost;
    }

    /** Accepted executions due at or before {@code cutoffMillis}. */
    synchronized long dueBefore(long cutoffMillis) {
        long due = 0;
        for (int seq = accepted.nextSetBit(0); seq >= 0; seq = accepted.nextSetBit(seq + 1)) {
            if (dueMillis[seq] <= cutoffMillis) {
                due++;
            }
        }
        return due;
    }
}
