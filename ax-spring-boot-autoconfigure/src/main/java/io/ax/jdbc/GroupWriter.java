package io.ax.jdbc;

import io.ax.core.AuditEntry;
import io.ax.core.Transition;
import io.ax.core.store.NewFire;
import java.time.Instant;
import java.util.List;

/**
 * Writes a group of rows in as few round trips as the database allows: new instances, state changes, audit rows and
 * next fire times. How few is the {@link Dialect}'s business. Each call joins the caller's transaction; a failed
 * call leaves it for the caller to roll back. Thread-safe.
 */
interface GroupWriter {

    /**
     * Inserts new instances with their payloads, leaving out each one whose task already has an instance with the
     * same key (also one earlier in {@code fires}). When {@code fence > 0} each row is written only while that epoch
     * is the leader's, and a fire with a {@link NewFire#partitionEpoch()} only while the row's partition is at it; the
     * caller tells a fenced-out row from a duplicate.
     *
     * @param partitions the partition count each row's partition is computed for; 0 while unknown: rows without one
     *     (which fail a partition fence)
     * @return per fire, whether its instance was written
     */
    boolean[] insertInstances(List<NewFire> fires, long fence, int partitions);

    /**
     * Applies changes of state as if one after the other, each only where its conditions hold (the leader's epoch,
     * the epoch of the row's partition, when the change carries them), with one audit row per change applied. The
     * caller tells a change that lost to a takeover or a move from one that lost to another writer.
     *
     * @return per transition, whether it applied
     */
    boolean[] transitionAll(List<Transition> transitions);

    void insertAudits(List<AuditEntry> entries);

    /** Sets the next fire time of tasks, one row each. */
    void updateNextFires(List<NextFire> fires);

    /** A task's next fire time, written at {@code at}. */
    record NextFire(String taskName, Instant next, Instant at) {}
}
