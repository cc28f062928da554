package io.ax.core;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The life cycle of one {@link TaskInstance}. The allowed transitions are held in one table, {@link #canMoveTo};
 * every store and the engine consult it, so an instance moves only along these arrows:
 *
 * <pre>
 * CREATED -&gt; SCHEDULED -&gt; RUNNING -&gt; SUCCESS
 *               |            |-----&gt; FAILED  --+--&gt; RETRYING -&gt; RUNNING ...
 *               |            '-----&gt; TIMEOUT --'--(retries used up)--&gt; DEAD
 *               +--&gt; CANCELLED   (cancelled, or a trigger's fire of a paused task)
 *               '--&gt; SKIPPED     (previous instance still running, concurrent = false)
 *
 * RUNNING -&gt; SCHEDULED  (claimed, never started: its node stopped first)
 *
 * CREATED -&gt; SKIPPED  (a workflow step whose upstream failed in its run: recorded, never scheduled)
 *
 * Operator arrows:  RETRYING -&gt; CANCELLED (cancelled while waiting for its next attempt)
 *                   DEAD -&gt; RETRYING      (a dead letter replayed: a new cycle of attempts, same instance)
 *
 * Earlier versions' two-step claim, still followed in rows they left:
 *                   SCHEDULED, RETRYING -&gt; DISPATCHED -&gt; RUNNING
 *                   DISPATCHED -&gt; SCHEDULED (not acknowledged, or given back at a stop)
 * </pre>
 *
 * <p>An attempt starts with one conditional write, SCHEDULED (or RETRYING) -&gt; RUNNING, by the owner of the
 * instance's partition, before its handler runs: a node that loses that write does not run it. DISPATCHED is the
 * state in which an earlier version left an instance assigned to a node and not yet acknowledged; this version
 * writes it no more, and claims, gives back or takes over the rows it finds in it.
 *
 * <p>The final states ({@link #isFinal}) are those the engine never leaves on its own; DEAD is left only by an
 * operator's replay.
 *
 * <p>A SCHEDULED instance's due time may move ({@link AxScheduler#reschedule}): the audit log records it as a
 * SCHEDULED -&gt; SCHEDULED row, a new time rather than a new state, so it is not an arrow of this table. An instance
 * that is due but waits for a permit of a cluster-wide limit (a group's or task's limit, a mutex) stays SCHEDULED (or
 * RETRYING): waiting is no state of its own, so every path that recovers, cancels or reschedules a waiting instance
 * is the one it always was. The wait is recorded as a SCHEDULED -&gt; SCHEDULED (RETRYING -&gt; RETRYING) row naming
 * the limit and its holders ({@link #isNote}).
 */
public enum InstanceState {
    /** Written, not yet waiting for its time. */
    CREATED,
    /**
     * Waiting for its scheduled time; once due, it may still wait for a permit of a cluster-wide limit, or for its
     * paused task's resume.
     */
    SCHEDULED,
    /**
     * Assigned to a node that has not acknowledged it yet: written by earlier versions only (see the class's
     * comment); this version still claims, gives back or takes over such rows.
     */
    DISPATCHED,
    /**
     * Claimed by its node, which runs it: executing on a worker thread, or waiting in its pool's queue for one. An
     * instance its node never started when it stopped goes back to SCHEDULED, for another node.
     */
    RUNNING,
    /** Finished successfully. Final. */
    SUCCESS,
    /** The attempt failed; a retry or DEAD follows. */
    FAILED,
    /** The attempt ran past its timeout and was interrupted; a retry or DEAD follows. */
    TIMEOUT,
    /** Waiting for the back-off before the next attempt. */
    RETRYING,
    /** Every attempt failed; a dead letter holds the details. Final, unless an operator replays it. */
    DEAD,
    /**
     * Cancelled while it waited: before its first attempt, or between two attempts. A paused task's pending trigger
     * fire ends here too. Final.
     */
    CANCELLED,
    /**
     * Not run: the previous instance of the same task was still running, or (a workflow step) an upstream task of
     * its run did not succeed. Final.
     */
    SKIPPED;

    private static final Map<InstanceState, Set<InstanceState>> ALLOWED = table();
    private static final Set<InstanceState> FINAL = Collections.unmodifiableSet(
            EnumSet.of(InstanceState.SUCCESS, InstanceState.DEAD, InstanceState.CANCELLED, InstanceState.SKIPPED));

    private static Map<InstanceState, Set<InstanceState>> table() {
        Map<InstanceState, Set<InstanceState>> t = new EnumMap<>(InstanceState.class);
        t.put(CREATED, EnumSet.of(SCHEDULED, SKIPPED));
        t.put(SCHEDULED, EnumSet.of(RUNNING, DISPATCHED, CANCELLED, SKIPPED));
        t.put(DISPATCHED, EnumSet.of(RUNNING, SCHEDULED));
        t.put(RUNNING, EnumSet.of(SUCCESS, FAILED, TIMEOUT, SCHEDULED));
        t.put(FAILED, EnumSet.of(RETRYING, DEAD));
        t.put(TIMEOUT, EnumSet.of(RETRYING, DEAD));
        t.put(RETRYING, EnumSet.of(RUNNING, DISPATCHED, CANCELLED));
        t.put(DEAD, EnumSet.of(RETRYING));
        for (InstanceState s : values()) {
            t.putIfAbsent(s, EnumSet.noneOf(InstanceState.class));
            t.put(s, Collections.unmodifiableSet(t.get(s)));
        }
        return Collections.unmodifiableMap(t);
    }

    /**
     * Tells whether an audit row from {@code from} to {@code to} records something other than a move: a SCHEDULED
     * instance's new due time, or a wait for a permit of a cluster-wide limit (SCHEDULED or RETRYING, unchanged).
     *
     * @param from the row's state before; null for a creation
     * @param to the row's state after
     * @return true when the row is such a note
     */
    public static boolean isNote(InstanceState from, InstanceState to) {
        return from == to && (from == SCHEDULED || from == RETRYING);
    }

    /**
     * Tells whether the state machine allows moving from this state to {@code next}.
     *
     * @param next the state to move to
     * @return true if the move is an arrow of the machine
     */
    public boolean canMoveTo(InstanceState next) {
        return ALLOWED.get(this).contains(next);
    }

    /** {@return the states this one may move to, unmodifiable; empty for SUCCESS, CANCELLED and SKIPPED} */
    public Set<InstanceState> successors() {
        return ALLOWED.get(this);
    }

    /**
     * Tells whether the instance is finished: SUCCESS, DEAD, CANCELLED or SKIPPED. The engine moves a finished instance
     * no further; only an operator's replay takes a DEAD one back to RETRYING.
     *
     * @return true for SUCCESS, DEAD, CANCELLED and SKIPPED
     */
    public boolean isFinal() {
        return FINAL.contains(this);
    }

    /**
     * {@return a new, modifiable set of the states of an instance that is scheduled and not finished: SCHEDULED,
     * DISPATCHED, RUNNING, FAILED, TIMEOUT and RETRYING}
     */
    public static Set<InstanceState> unfinished() {
        return java.util.EnumSet.of(SCHEDULED, DISPATCHED, RUNNING, FAILED, TIMEOUT, RETRYING);
    }
}
