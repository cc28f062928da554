package io.ax.core.store;

import io.ax.core.InstanceOrigin;
import io.ax.core.InstanceState;
import io.ax.core.TaskInstance;
import java.util.Objects;

/**
 * An instance to be written straight into SCHEDULED (its CREATED and SCHEDULED rows are both audited).
 *
 * @param instance the instance, in state SCHEDULED with attempt 0; its key, if any, must be new for its task
 * @param reason why it was created, for the audit row
 * @param payload the bytes handed to the task when it runs, or null
 * @param partitionEpoch when above 0, the epoch of the new row's partition the insert is conditional on: the row is
 *     written only if the partition the store computes for it ({@link io.ax.core.cluster.Partitions#of}, with the
 *     count it writes rows with) is, in the same statement, still at this epoch, read as {@link
 *     io.ax.core.Transition#partitionEpoch()} reads it. A row the store would write without a partition (while it
 *     does not know the count) fails the fence. 0 for a fire fenced by no partition
 */
public record NewFire(TaskInstance instance, String reason, byte[] payload, long partitionEpoch) {

    public NewFire {
        Objects.requireNonNull(instance, "instance");
        if (instance.state() != InstanceState.SCHEDULED) {
            throw new IllegalArgumentException(
                    "a new fire must be SCHEDULED, " + instance.id() + " is " + instance.state());
        }
        reason = reason == null ? "" : reason;
        if (partitionEpoch < 0) {
            throw new IllegalArgumentException("partitionEpoch must be >= 0, was " + partitionEpoch);
        }
    }

    /** A fire fenced by no partition. */
    public NewFire(TaskInstance instance, String reason, byte[] payload) {
        this(instance, reason, payload, 0);
    }

    /** A fire without payload, fenced by no partition. */
    public NewFire(TaskInstance instance, String reason) {
        this(instance, reason, null);
    }

    /** This fire, written only while its partition is at {@code epoch}; 0 takes the partition fence off. */
    public NewFire fencedByPartition(long epoch) {
        return new NewFire(instance, reason, payload, epoch);
    }

    /** Whether the task's trigger made it: the task's next fire time becomes its scheduled time. */
    public boolean series() {
        return instance.origin() == InstanceOrigin.SERIES;
    }
}
