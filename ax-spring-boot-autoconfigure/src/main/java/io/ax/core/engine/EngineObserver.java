package io.ax.core.engine;

import io.ax.core.AxClockJumpEvent;
import io.ax.core.AxStoreRegressionEvent;
import io.ax.core.AxTask;
import io.ax.core.InstanceState;
import java.time.Duration;

/**
 * Hears what the engine does, for metrics and operator insight. Every method does nothing by default.
 *
 * <p>Called on the engine's own threads in the middle of their work (dispatch, workers, the clock watch):
 * implementations must be thread-safe, fast, and must not block. An observer that throws is logged once and
 * otherwise ignored; it never stops the engine.
 */
public interface EngineObserver {

    /** What dispatch did with a due instance. */
    enum DispatchOutcome {
        /** Handed to its pool. */
        DISPATCHED,
        /** Not run: the previous instance was still running, or the task is paused. */
        SKIPPED,
        /** Its pool was full: sent back to SCHEDULED, to be dispatched again after the rejection back-off. */
        REJECTED,
        /**
         * A cluster-wide limit (a group's, a task's, a mutex) had no free permit: it stays due and starts when one
         * frees.
         */
        WAITED
    }

    /** A due instance of {@code task} was dispatched, skipped or rejected. */
    default void dispatched(AxTask task, DispatchOutcome outcome) {}

    /** This node took an instance of {@code task} into one of its pools, to run it. */
    default void received(AxTask task) {}

    /**
     * An attempt started running.
     *
     * @param attempt the attempt number, 1-based
     * @param lateness its start minus its scheduled time (zero when it started early by the wall clock); for a
     *     retry this includes the back-off
     * @param ackLatency from the hand-off to the pool to the start
     */
    default void started(AxTask task, int attempt, Duration lateness, Duration ackLatency) {}

    /**
     * An attempt ended.
     *
     * @param outcome SUCCESS, FAILED or TIMEOUT
     * @param took how long it ran
     */
    default void finished(AxTask task, InstanceState outcome, Duration took) {}

    /** A failed or timed-out attempt will be retried after its back-off. */
    default void retried(AxTask task) {}

    /**
     * A running attempt of {@code task} ended with its node, which crashed, froze, was cut off from the store or
     * restarted while it ran, and this node took it over: not a failure of the handler (no {@link #finished} for it).
     * The attempt runs again, unless the instance's takeovers are used up.
     */
    default void takenOver(AxTask task) {}

    /** An instance went DEAD and left a dead letter. */
    default void deadLettered(AxTask task) {}

    /** The wall clock jumped; trigger decisions pause. */
    default void clockJumped(AxClockJumpEvent event) {}

    /** The store went back in time or is another server: this node fenced itself ({@link AxStoreRegressionEvent}). */
    default void storeWentBack(AxStoreRegressionEvent event) {}

    /**
     * This node's claim of an attempt (its write to RUNNING) was confirmed by the store, {@code latency} after the
     * node decided it (the meter {@code ax.cluster.ack.latency}).
     */
    default void acknowledged(AxTask task, Duration latency) {}

    /**
     * Retention, on the leader, deleted {@code count} finished instances past their retention, with their audit
     * rows and dead letters (and dead letters whose instance another store held); called once per batch, on the
     * retention thread.
     */
    default void retentionDeleted(int count) {}
}
